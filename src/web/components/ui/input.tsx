import { forwardRef, type InputHTMLAttributes, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { cn } from './cn';
import { useFieldControl } from './form-field';

const control =
  'block w-full rounded-lg border border-white/15 bg-zinc-900/80 px-3 text-zinc-100 placeholder:text-zinc-500 ' +
  'transition-colors hover:border-white/25 focus-visible:border-violet-400 focus-visible:outline-2 focus-visible:outline-offset-0 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-red-400/80 aria-invalid:focus-visible:outline-red-400';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input(
  { className, ...props },
  ref,
) {
  const field = useFieldControl(props);
  return <input ref={ref} className={cn(control, 'h-10 text-base sm:text-sm', className)} {...props} {...field} />;
});

export const Textarea = forwardRef<HTMLTextAreaElement, TextareaHTMLAttributes<HTMLTextAreaElement>>(function Textarea(
  { className, rows = 4, ...props },
  ref,
) {
  const field = useFieldControl(props);
  return <textarea ref={ref} rows={rows} className={cn(control, 'py-2 text-base sm:text-sm', className)} {...props} {...field} />;
});

/** A native select: the platform picker is the most accessible one on phones. */
export const Select = forwardRef<HTMLSelectElement, SelectHTMLAttributes<HTMLSelectElement>>(function Select(
  { className, children, ...props },
  ref,
) {
  const field = useFieldControl(props);
  return (
    <div className="relative">
      <select
        ref={ref}
        className={cn(control, 'h-10 appearance-none pr-9 text-base sm:text-sm', className)}
        {...props}
        {...field}
      >
        {children}
      </select>
      <svg
        aria-hidden="true"
        viewBox="0 0 20 20"
        fill="currentColor"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-zinc-400"
      >
        <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.6" fill="none" strokeLinecap="round" />
      </svg>
    </div>
  );
});

/** A native checkbox (works with react-hook-form's register), styled to the theme. */
export const Checkbox = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>>(
  function Checkbox({ className, ...props }, ref) {
    const field = useFieldControl(props);
    return (
      <input
        ref={ref}
        type="checkbox"
        className={cn(
          'mt-0.5 size-5 shrink-0 cursor-pointer rounded border-white/30 accent-violet-500',
          'aria-invalid:outline aria-invalid:outline-2 aria-invalid:outline-red-400',
          className,
        )}
        {...props}
        {...field}
      />
    );
  },
);
