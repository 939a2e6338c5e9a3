import { useEffect, useState, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import { useHydrating } from '@web/lib/hydration';
import { cn } from './cn';

export interface StickyActionBarProps {
  /** The page's own copy of the action: while any of it is on screen the bar steps aside. */
  watch: RefObject<Element | null>;
  /** Names the bar for screen readers (a region landmark). */
  label: string;
  children: ReactNode;
  className?: string;
}

/** Whether `ref`'s element is at least partly inside the viewport (false until first measured). */
function useInView(ref: RefObject<Element | null>) {
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(([entry]) => setInView(Boolean(entry?.isIntersecting)));
    io.observe(el);
    return () => io.disconnect();
  }, [ref]);
  return inView;
}

/**
 * A bar fixed to the bottom of a phone screen with a page's main action, for pages where that
 * action sits far below the fold. Hidden from md up (the action is near the top there) and while
 * the page's own copy is in view. A spacer of the bar's height ends the document, so the bar
 * never covers the footer or the last of the content.
 */
export function StickyActionBar({ watch, label, children, className }: StickyActionBarProps) {
  const inView = useInView(watch);
  // Into <body>, which the server's HTML of the page does not draw: added once hydrated.
  const hydrating = useHydrating();
  if (hydrating || typeof document === 'undefined') return null;
  return createPortal(
    <>
      <div aria-hidden="true" data-sticky-spacer className="h-[calc(4.5rem+env(safe-area-inset-bottom))] md:hidden" />
      <div
        role="region"
        aria-label={label}
        data-sticky-action-bar
        className={cn(
          'fixed inset-x-0 bottom-0 z-30 border-t border-white/10 bg-zinc-950/95 px-4 pt-3 backdrop-blur md:hidden',
          'pb-[max(0.75rem,env(safe-area-inset-bottom))]',
          inView && 'hidden',
          className,
        )}
      >
        {children}
      </div>
    </>,
    document.body,
  );
}
