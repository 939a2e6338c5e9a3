import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import * as Radix from 'radix-ui/dropdown-menu';
import { cn } from './cn';

/**
 * Non-modal by default: the rest of the page is not aria-hidden while a menu is open (Escape,
 * Tab and clicking outside still close it), so assistive tech never sees a hidden-but-focusable page.
 */
export function DropdownMenu({ modal = false, ...props }: ComponentPropsWithoutRef<typeof Radix.Root>) {
  return <Radix.Root modal={modal} {...props} />;
}
export const DropdownMenuTrigger = Radix.Trigger;
export const DropdownMenuGroup = Radix.Group;

export function DropdownMenuContent({
  className,
  align = 'end',
  sideOffset = 8,
  children,
  ...props
}: ComponentPropsWithoutRef<typeof Radix.Content>) {
  return (
    <Radix.Portal>
      <Radix.Content
        align={align}
        sideOffset={sideOffset}
        className={cn(
          'z-50 min-w-52 overflow-hidden rounded-xl border border-white/10 bg-surface-2 p-1.5 text-sm text-zinc-100',
          'shadow-2xl shadow-black/60 data-[state=open]:animate-fade-in',
          className,
        )}
        {...props}
      >
        {children}
      </Radix.Content>
    </Radix.Portal>
  );
}

export function DropdownMenuItem({
  className,
  danger,
  icon,
  children,
  ...props
}: ComponentPropsWithoutRef<typeof Radix.Item> & { danger?: boolean; icon?: ReactNode }) {
  return (
    <Radix.Item
      className={cn(
        'flex cursor-pointer items-center gap-2.5 rounded-lg px-2.5 py-2 outline-none select-none',
        'data-[highlighted]:bg-white/10 data-[disabled]:pointer-events-none data-[disabled]:opacity-50',
        danger ? 'text-red-300 data-[highlighted]:text-red-200' : 'data-[highlighted]:text-white',
        className,
      )}
      {...props}
    >
      {icon ? <span aria-hidden="true" className="text-zinc-400 [&>svg]:size-4">{icon}</span> : null}
      {children}
    </Radix.Item>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentPropsWithoutRef<typeof Radix.Label>) {
  return <Radix.Label className={cn('px-2.5 py-2 text-xs text-zinc-400', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentPropsWithoutRef<typeof Radix.Separator>) {
  return <Radix.Separator className={cn('my-1 h-px bg-white/10', className)} {...props} />;
}
