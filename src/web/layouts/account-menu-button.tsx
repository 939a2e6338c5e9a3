import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import { ChevronDown } from 'lucide-react';
import { Button } from '@web/components/ui/button';

type Props = Omit<ComponentPropsWithoutRef<typeof Button>, 'children'> & { username: string };

/**
 * The account menu's button. Drawn on its own until the menu is first wanted (signed-in-header.tsx),
 * then as the menu's trigger: the same element, so nothing moves when the menu's code arrives.
 */
export const AccountMenuButton = forwardRef<HTMLButtonElement, Props>(function AccountMenuButton(
  { username, ...props },
  ref,
) {
  return (
    <Button ref={ref} variant="ghost" className="gap-2 px-2" aria-label={`Account menu for ${username}`} {...props}>
      {/* The avatar's letter is drawn by CSS, not a text node: it is decoration, and as text it
          became part of the button's visible label ("D demo"), which the accessible name
          "Account menu for demo" then did not contain (WCAG 2.5.3, label in name). */}
      <span
        aria-hidden="true"
        data-initial={username.slice(0, 1).toUpperCase()}
        className="grid size-8 place-items-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-sm font-bold text-white before:content-[attr(data-initial)]"
      />
      <span className="hidden max-w-32 truncate lg:inline">{username}</span>
      <ChevronDown aria-hidden="true" className="size-4 text-zinc-400" />
    </Button>
  );
});
