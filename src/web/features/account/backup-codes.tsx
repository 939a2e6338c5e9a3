import { Check, Copy, Download } from 'lucide-react';
import { useState } from 'react';
import { Button, Notice } from '@web/components/ui';

/** Backup codes shown once: a list, copy to clipboard and a .txt download. */
export function BackupCodesView({ codes, siteName = 'Packvault' }: { codes: string[]; siteName?: string }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2500);
    } catch {
      setCopied(false);
    }
  };
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(
    `${siteName} backup codes\nEach code works once. Keep them somewhere safe.\n\n${text}\n`,
  )}`;
  return (
    <div className="space-y-4">
      <Notice tone="warning" title="Save these codes now" live={false}>
        They are shown only once. Each one signs you in a single time if you lose your authenticator. Your old codes no
        longer work.
      </Notice>
      <ul aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-xl border border-white/10 bg-black/30 p-4 font-mono text-sm text-zinc-100">
        {codes.map((c) => (
          <li key={c} className="tracking-wider">
            {c}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copy()}>
          {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
          {copied ? 'Copied' : 'Copy codes'}
        </Button>
        <Button variant="secondary" asChild>
          <a href={href} download={`${siteName.toLowerCase()}-backup-codes.txt`}>
            <Download aria-hidden="true" className="size-4" /> Download .txt
          </a>
        </Button>
      </div>
      <span aria-live="polite" className="sr-only">
        {copied ? 'Backup codes copied to the clipboard.' : ''}
      </span>
    </div>
  );
}
