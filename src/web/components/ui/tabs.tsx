import { createContext, useContext, useId, useState, type ComponentPropsWithoutRef, type KeyboardEvent } from 'react';
import { cn } from './cn';

/**
 * Tabs after the WAI-ARIA tabs pattern, with Radix Tabs' props and behaviour (ADR 0022): a tab list
 * with one tab in the page's tab order (roving tabindex), arrow keys, Home and End moving focus in a
 * loop and selecting the focused tab (automatic activation), each tab naming its panel and each
 * panel its tab, only the active panel mounted. Radix's version and the shared internals it needs
 * were 10 KB gzipped on /collect, /top-pulls and /shop/{id}, loaded before their first card.
 */

interface TabsState {
  value: string;
  select: (value: string) => void;
  idOf: (part: 'tab' | 'panel', value: string) => string;
}

const TabsContext = createContext<TabsState | null>(null);

function useTabs(): TabsState {
  const state = useContext(TabsContext);
  if (!state) throw new Error('A tab part was drawn outside <Tabs>.');
  return state;
}

type TabsProps = Omit<ComponentPropsWithoutRef<'div'>, 'defaultValue' | 'onChange'> & {
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
};

export function Tabs({ value, defaultValue, onValueChange, ...props }: TabsProps) {
  const [own, setOwn] = useState(defaultValue ?? '');
  const current = value ?? own;
  const base = useId();
  const state: TabsState = {
    value: current,
    select: (next) => {
      if (next === current) return;
      if (value === undefined) setOwn(next);
      onValueChange?.(next);
    },
    idOf: (part, v) => `${base}-${part}-${v.replace(/[^\w-]/g, '_')}`,
  };
  return (
    <TabsContext.Provider value={state}>
      <div {...props} />
    </TabsContext.Provider>
  );
}

const MOVES: Record<string, (i: number, n: number) => number> = {
  ArrowRight: (i, n) => (i + 1) % n,
  ArrowLeft: (i, n) => (i - 1 + n) % n,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

export function TabsList({ className, onKeyDown, ...props }: ComponentPropsWithoutRef<'div'>) {
  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(e);
    const move = MOVES[e.key];
    if (!move || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const tabs = [...e.currentTarget.querySelectorAll<HTMLButtonElement>('[role="tab"]:not([disabled])')];
    const at = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0 || tabs.length === 0) return;
    e.preventDefault();
    // Focusing the tab selects it (TabsTrigger's onFocus).
    tabs[move(at, tabs.length)]!.focus();
  };
  return (
    <div
      role="tablist"
      aria-orientation="horizontal"
      className={cn('inline-flex max-w-full gap-1 overflow-x-auto rounded-xl border border-white/10 bg-white/[0.03] p-1', className)}
      onKeyDown={keyDown}
      {...props}
    />
  );
}

type TriggerProps = Omit<ComponentPropsWithoutRef<'button'>, 'value'> & { value: string };

export function TabsTrigger({ value, className, onClick, onFocus, disabled, ...props }: TriggerProps) {
  const tabs = useTabs();
  const active = tabs.value === value;
  return (
    <button
      type="button"
      role="tab"
      id={tabs.idOf('tab', value)}
      aria-selected={active}
      aria-controls={tabs.idOf('panel', value)}
      data-state={active ? 'active' : 'inactive'}
      tabIndex={active ? 0 : -1}
      disabled={disabled}
      className={cn(
        'rounded-lg px-3 py-1.5 text-sm font-medium whitespace-nowrap text-zinc-300 transition-colors hover:text-white',
        'data-[state=active]:bg-violet-500/20 data-[state=active]:text-white data-[state=active]:ring-1 data-[state=active]:ring-violet-400/40',
        className,
      )}
      onClick={(e) => {
        onClick?.(e);
        if (!e.defaultPrevented) tabs.select(value);
      }}
      onFocus={(e) => {
        onFocus?.(e);
        if (!e.defaultPrevented) tabs.select(value);
      }}
      {...props}
    />
  );
}

type ContentProps = Omit<ComponentPropsWithoutRef<'div'>, 'value'> & { value: string };

export function TabsContent({ value, className, ...props }: ContentProps) {
  const tabs = useTabs();
  if (tabs.value !== value) return null;
  return (
    <div
      role="tabpanel"
      id={tabs.idOf('panel', value)}
      aria-labelledby={tabs.idOf('tab', value)}
      data-state="active"
      tabIndex={0}
      className={cn('mt-4', className)}
      {...props}
    />
  );
}
