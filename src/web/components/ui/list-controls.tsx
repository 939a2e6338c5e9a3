import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Label } from './form-field';
import { Input, Select } from './input';

/** A search box that waits for the user to pause typing before it filters. */
export function SearchBox({ value, onChange, label, placeholder }: { value: string; onChange: (v: string) => void; label: string; placeholder?: string }) {
  const id = useId();
  const [text, setText] = useState(value);
  const last = useRef(value);
  useEffect(() => {
    if (value !== last.current) {
      last.current = value;
      setText(value);
    }
  }, [value]);
  useEffect(() => {
    if (text.trim() === last.current) return;
    const t = setTimeout(() => {
      last.current = text.trim();
      onChange(text.trim());
    }, 250);
    return () => clearTimeout(t);
  }, [text, onChange]);
  return (
    <div className="w-full sm:w-auto sm:min-w-56 sm:max-w-xs sm:flex-1">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="search" value={text} placeholder={placeholder} onChange={(e) => setText(e.target.value)} className="mt-1" />
    </div>
  );
}

/** A labelled select for list filters: `options`, or `<option>` children. */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  children,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options?: Array<{ value: string; label: string }>;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <div className="min-w-36 flex-1 sm:flex-none">
      <Label htmlFor={id}>{label}</Label>
      <div className="mt-1">
        <Select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
          {options
            ? options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))
            : children}
        </Select>
      </div>
    </div>
  );
}

export interface StatusChip {
  value: string;
  label: ReactNode;
  /** Shown after the label when known (the API's count for that status). */
  count?: number | undefined;
}

/** A row of toggle chips that filter a list by status, each with its count (admin queues and lists). */
export function StatusChips({ label, chips, value, onChange }: { label: string; chips: readonly StatusChip[]; value: string; onChange: (value: string) => void }) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {chips.map((c) => (
          <li key={c.value || 'all'}>
            <button
              type="button"
              aria-pressed={value === c.value}
              onClick={() => onChange(c.value)}
              className={
                'rounded-full px-3 py-1.5 text-sm ring-1 ring-white/15 transition-colors ring-inset hover:bg-white/5 ' +
                (value === c.value ? 'bg-violet-500/20 font-medium text-white ring-violet-400/50' : 'text-zinc-300')
              }
            >
              {c.label}
              {c.count !== undefined ? (
                <>
                  {' '}
                  <span className="ml-1 tabular-nums text-zinc-400">{c.count}</span>
                </>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
