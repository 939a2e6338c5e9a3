import { useLayoutEffect, type ReactNode } from 'react';

/**
 * Radix's focus guards (@radix-ui/react-focus-guards, which preact-aliases.ts points here), the
 * same two invisible focus stops at the ends of <body> while a dialog, menu or popover is open, put
 * in place in a layout effect instead of a passive one.
 *
 * Why: a modal dialog hides everything but itself from screen readers (`hideOthers`, in a passive
 * effect of the dialog's outer part) and relies on the guards, added by its inner part, already
 * being there to hide them too. React runs the inner part's effects first; Preact ran the outer
 * part's first, so the guards stayed exposed: focusable spans without a role (axe:
 * focus-order-semantics). A layout effect runs before any passive effect of the same render, so the
 * guards exist when the dialog hides the rest of the page, whichever runtime orders the effects.
 */
let count = 0;
let guards: { start: HTMLSpanElement; end: HTMLSpanElement } | null = null;

function createFocusGuard(): HTMLSpanElement {
  const element = document.createElement('span');
  element.setAttribute('data-radix-focus-guard', '');
  element.tabIndex = 0;
  element.style.outline = 'none';
  element.style.opacity = '0';
  element.style.position = 'fixed';
  element.style.pointerEvents = 'none';
  return element;
}

export function useFocusGuards(): void {
  useLayoutEffect(() => {
    guards ??= { start: createFocusGuard(), end: createFocusGuard() };
    const { start, end } = guards;
    if (document.body.firstElementChild !== start) document.body.insertAdjacentElement('afterbegin', start);
    if (document.body.lastElementChild !== end) document.body.insertAdjacentElement('beforeend', end);
    count++;
    return () => {
      if (count === 1) {
        guards?.start.remove();
        guards?.end.remove();
        guards = null;
      }
      count = Math.max(0, count - 1);
    };
  }, []);
}

export function FocusGuards(props: { children?: ReactNode }) {
  useFocusGuards();
  return props.children;
}

export { FocusGuards as Root };
