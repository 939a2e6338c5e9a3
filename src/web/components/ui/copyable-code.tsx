import { Copy } from 'lucide-react';
import { Button } from './button';
import { cn } from './cn';
import { toast } from './toast';

/**
 * A long machine value (hash, seed, id) in monospace with a copy button. `truncate` keeps it to
 * one line with an ellipsis (the full value is copied, and shown on hover); otherwise it breaks
 * anywhere, which hex needs since it has no word boundaries.
 */
export function CopyableCode({ children, label, truncate = false, className }: { children: string; label: string; truncate?: boolean; className?: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(children);
      toast.success(`${label} copied`);
    } catch {
      toast.error('Copy failed', 'Select the text and copy it by hand.');
    }
  };
  return (
    <span className={cn('flex items-center gap-2', className)}>
      <code
        title={truncate ? children : undefined}
        className={cn(
          'min-w-0 flex-1 rounded-lg bg-black/40 px-2.5 py-1.5 font-mono text-xs text-gold-300 ring-1 ring-white/10',
          truncate ? 'truncate' : 'break-all',
        )}
      >
        {children}
      </code>
      <Button variant="ghost" size="icon" className="size-8 shrink-0" aria-label={`Copy ${label.toLowerCase()}`} onClick={copy}>
        <Copy aria-hidden="true" className="size-4" />
      </Button>
    </span>
  );
}
