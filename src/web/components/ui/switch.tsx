import { forwardRef, type ComponentPropsWithoutRef } from 'react';
import * as Radix from 'radix-ui/switch';
import { cn } from './cn';
import { useFieldControl } from './form-field';

/**
 * An on/off switch (role="switch", Space/Enter toggles). Name it with aria-label or a Label's
 * htmlFor; inside a FormField it is wired like the other controls.
 */
export const Switch = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<typeof Radix.Root>>(function Switch(
  { className, ...props },
  ref,
) {
  const field = useFieldControl(props);
  return (
    <Radix.Root
      ref={ref}
      className={cn(
        'relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full border border-white/20 bg-zinc-700 transition-colors',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400',
        'data-[state=checked]:border-violet-400 data-[state=checked]:bg-violet-600',
        'disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      {...props}
      {...field}
    >
      <Radix.Thumb
        className={cn(
          'pointer-events-none block size-4 translate-x-1 rounded-full bg-white shadow transition-transform',
          'data-[state=checked]:translate-x-6',
        )}
      />
    </Radix.Root>
  );
});
