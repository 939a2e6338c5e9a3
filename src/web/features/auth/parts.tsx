import { forwardRef, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { cn, Input } from '@web/components/ui';

/** The h1 and a sentence of the auth panel. */
export function AuthHeader({ title, children, icon }: { title: ReactNode; children?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="mb-6 space-y-2">
      {icon ? (
        <span aria-hidden="true" className="mb-2 inline-flex rounded-xl bg-violet-500/15 p-2.5 text-violet-300 [&>svg]:size-6">
          {icon}
        </span>
      ) : null}
      <h1 className="text-2xl font-bold tracking-tight text-white">{title}</h1>
      {children ? <div className="text-sm leading-relaxed text-zinc-300">{children}</div> : null}
    </div>
  );
}

/** A password input with a show/hide toggle (the toggle is a real button, labelled). */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>>(
  function PasswordInput({ className, ...props }, ref) {
    const [shown, setShown] = useState(false);
    return (
      <div className="relative">
        <Input ref={ref} type={shown ? 'text' : 'password'} className={cn('pr-11', className)} {...props} />
        <button
          type="button"
          onClick={() => setShown((s) => !s)}
          aria-pressed={shown}
          aria-label={shown ? 'Hide password' : 'Show password'}
          className="absolute top-1/2 right-1.5 grid size-8 -translate-y-1/2 place-items-center rounded-md text-zinc-400 hover:bg-white/10 hover:text-white"
        >
          {shown ? <EyeOff aria-hidden="true" className="size-4" /> : <Eye aria-hidden="true" className="size-4" />}
        </button>
      </div>
    );
  },
);

/** Reads a search param as a string (the router parses "123" as a number). */
export function searchString(search: Record<string, unknown>, key: string): string | undefined {
  const v = search[key];
  if (v === undefined || v === null || v === '') return undefined;
  return String(v);
}

/** Builds "/path?x=y" leaving out empty values. */
export function hrefWith(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}
