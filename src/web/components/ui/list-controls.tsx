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
