import type { ComponentPropsWithoutRef } from 'react';
import * as Radix from 'radix-ui/tabs';
import { cn } from './cn';

export const Tabs = Radix.Root;

export function TabsList({ className, ...props }: ComponentPropsWithoutRef<typeof Radix.List>) {
  return (
    <Radix.List
      className={cn('inline-flex max-w-full gap-1 overflow-x-auto rounded-xl border border-white/10 bg-white/[0.03] p-1', className)}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentPropsWithoutRef<typeof Radix.Trigger>) {
  return (
    <Radix.Trigger
      className={cn(
        'rounded-lg px-3 py-1.5 text-sm font-medium whitespace-nowrap text-zinc-300 transition-colors hover:text-white',
        'data-[state=active]:bg-violet-500/20 data-[state=active]:text-white data-[state=active]:ring-1 data-[state=active]:ring-violet-400/40',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentPropsWithoutRef<typeof Radix.Content>) {
  return <Radix.Content className={cn('mt-4', className)} {...props} />;
}
