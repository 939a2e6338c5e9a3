import { useRef, type ReactNode } from 'react';
import { Button } from './button';

export interface FileButtonProps {
  /** The input's id: a <Label htmlFor> names it, and clicking the label opens the picker too. */
  id: string;
  accept: string;
  onFile: (file: File | undefined) => void;
  /** The button's text, e.g. "Upload image" or "Replace image". */
  children: ReactNode;
  /** Accessible name when the text alone is ambiguous; it must contain the visible text. */
  buttonLabel?: string;
  loading?: boolean;
  /** Shown next to the button once a file is picked. */
  fileName?: string | null;
  describedBy?: string;
  invalid?: boolean;
}

/**
 * A file picker drawn as one of our buttons. The native input's "No file chosen" text sat next to
 * images that were already uploaded; the input stays for the label, forms and tests, but out of
 * sight and out of the tab order so keyboard users meet only the button.
 */
export function FileButton({ id, accept, onFile, children, buttonLabel, loading, fileName, describedBy, invalid }: FileButtonProps) {
  const ref = useRef<HTMLInputElement>(null);
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <input
        ref={ref}
        id={id}
        type="file"
        accept={accept}
        className="sr-only"
        tabIndex={-1}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => {
          onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <Button type="button" variant="secondary" size="sm" loading={loading} aria-label={buttonLabel} aria-describedby={describedBy} onClick={() => ref.current?.click()}>
        {children}
      </Button>
      {fileName ? <span className="min-w-0 truncate text-sm text-zinc-300">{fileName}</span> : null}
    </div>
  );
}
