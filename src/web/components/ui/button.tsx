import { cloneElement, forwardRef, isValidElement, type ButtonHTMLAttributes, type ReactElement, type ReactNode } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

const base =
  'inline-flex select-none items-center justify-center gap-2 whitespace-nowrap rounded-lg font-semibold transition-colors ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60';

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-gradient-to-r from-violet-600 to-fuchsia-600 text-white shadow-lg shadow-violet-950/40 ' +
    'hover:from-violet-500 hover:to-fuchsia-500 active:from-violet-700 active:to-fuchsia-700',
  secondary: 'bg-white/5 text-zinc-100 ring-1 ring-inset ring-white/15 hover:bg-white/10 hover:ring-white/25',
  ghost: 'text-zinc-200 hover:bg-white/10 hover:text-white',
  danger: 'bg-red-600 text-white hover:bg-red-500 active:bg-red-700',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'size-10 p-0',
};

/** Class names of a button, for elements that must look like one (e.g. router links). */
export function buttonClasses({
  variant = 'primary',
  size = 'md',
  className,
}: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {}) {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, keeps the label for screen readers and blocks further clicks. */
  loading?: boolean;
  /** Text announced while loading, e.g. "Signing in…". Defaults to the visible label. */
  loadingText?: ReactNode;
  /** Render the single child (a link) with button styles. */
  asChild?: boolean;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', loading = false, loadingText, asChild, className, children, disabled, type, onClick, ...rest },
  ref,
) {
  const classes = buttonClasses({ variant, size, className });
  // asChild styles its one child (a download link) as a button. Not Radix's Slot: the Button is in
  // the site header, so Slot and its ref composition (1.2 KB gzip) were in every page's entry chunk
  // for two links on account pages. The child keeps its own props; ours fill in the rest.
  if (asChild && isValidElement<{ className?: string }>(children)) {
    const child = children as ReactElement<Record<string, unknown> & { className?: string }>;
    return cloneElement(child, { onClick, ...rest, ...child.props, className: cn(classes, child.props.className), ref });
  }
  return (
    <button
      ref={ref}
      type={type ?? 'button'}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      // React drops clicks on a disabled button (also one dispatched from script), so a busy
      // button does not act twice.
      onClick={onClick}
      {...rest}
    >
      {loading ? <Spinner label={null} /> : null}
      {loading && loadingText ? loadingText : children}
    </button>
  );
});
