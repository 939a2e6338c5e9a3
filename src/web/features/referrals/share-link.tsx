import { Check, Copy, Share2 } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button, Input, Label } from '@web/components/ui';
import { QrCode } from './qr-code';

/** The invite link: a read-only field, Copy (announced), Share where the browser has it, and a QR code. */
export function ShareLink({ url, code }: { url: string; code: string }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [announce, setAnnounce] = useState('');
  const [copied, setCopied] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2500);
    return () => clearTimeout(t);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setAnnounce(`Invite link copied: ${url}`);
    } catch {
      // No clipboard permission: select the text so the user can copy it themselves.
      inputRef.current?.select();
      setAnnounce('Copying is blocked here. The link is selected: copy it with your keyboard or menu.');
    }
  };
  const share = async () => {
    try {
      await navigator.share({ title: 'Join me on Packvault', text: `Use my invite code ${code}.`, url });
    } catch (err) {
      if ((err as Error).name !== 'AbortError') await copy();
    }
  };

  return (
    <div className="grid gap-6 md:grid-cols-[1fr_auto] md:items-start">
      <div className="min-w-0 space-y-3">
        <Label htmlFor={id}>Your invite link</Label>
        <Input ref={inputRef} id={id} readOnly value={url} onFocus={(e) => e.currentTarget.select()} className="font-mono text-sm" />
        <div className="flex flex-wrap gap-2">
          <Button type="button" onClick={() => void copy()}>
            {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
            {copied ? 'Copied' : 'Copy link'}
          </Button>
          {canShare ? (
            <Button type="button" variant="secondary" onClick={() => void share()}>
              <Share2 aria-hidden="true" className="size-4" /> Share
            </Button>
          ) : null}
        </div>
        <p className="text-sm text-zinc-400">
          Your code: <span className="font-mono font-semibold tracking-wider text-white">{code}</span>
        </p>
        <p role="status" className="sr-only">
          {announce}
        </p>
      </div>
      <figure className="mx-auto w-44 space-y-2 md:mx-0">
        <QrCode text={url} label={`QR code of your invite link, ${url}`} className="w-full rounded-lg" />
        <figcaption className="text-center text-xs text-zinc-400">Scan to open your invite link</figcaption>
      </figure>
    </div>
  );
}
