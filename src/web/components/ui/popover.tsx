import type { ComponentPropsWithoutRef } from 'react';
import * as Radix from 'radix-ui/popover';
import { cn } from './cn';

/**
 * A panel anchored to a button (an inbox, a filter): Escape and clicking outside close it and
 * focus returns to the trigger. Non-modal, like DropdownMenu, so the page is never aria-hidden.
 */
export const Popover = Radix.Root;
export const PopoverTrigger = Radix.Trigger;
export const PopoverClose = Radix.Close;

export function PopoverContent({
  className,
  align = 'end',
  sideOffset = 8,
  collisionPadding = 8,
  children,
  ...props
}: ComponentPropsWithoutRef<typeof Radix.Content>) {
  return (
    <Radix.Portal>
      <Radix.Content
        align={align}
        sideOffset={sideOffset}
        collisionPadding={collisionPadding}
        className={cn(
          'z-50 rounded-xl border border-white/10 bg-surface-2 text-sm text-zinc-100 shadow-2xl shadow-black/60',
          'outline-none data-[state=open]:animate-fade-in',
          className,
        )}
        {...props}
      >
        {children}
      </Radix.Content>
    </Radix.Portal>
  );
}
