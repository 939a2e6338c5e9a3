import { useContext, useEffect, useRef, useState } from 'react';
import { QueryClientContext } from '@tanstack/react-query';
import { Check, Share2 } from 'lucide-react';
import { Button, type ButtonSize, type ButtonVariant } from './button';

type Outcome = 'idle' | 'shared' | 'copied' | 'failed';

/**
 * Shares a page of the site: the system share sheet where the browser has one (phones),
 * otherwise the link goes to the clipboard and "Link copied" shows on the button and is
 * announced. `path` is site-relative; the absolute URL is built here. A signed-in sharer's link
 * carries their referral code (`?ref=`, from /api/me's `referralCode`), so a friend who signs up
 * from it is their referral (issue 41).
 */
export function ShareButton({
  path,
  title,
  text,
  label = 'Share',
  accessibleLabel,
  variant = 'secondary',
  size = 'sm',
  className,
}: {
  path: string;
  title: string;
  text?: string;
  label?: string;
  /** When the visible label alone is ambiguous (a list of cards): "Share Ember Drake". */
  accessibleLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) {
  const [outcome, setOutcome] = useState<Outcome>('idle');
  // The session query (features/auth/session.ts), by its key: components do not import features.
  // Read at click time, not subscribed: the button draws the same for everyone.
  const queryClient = useContext(QueryClientContext);
  const link = () => shareUrl(path, queryClient?.getQueryData<{ user?: { referralCode?: string | null } } | null>(['session'])?.user?.referralCode);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const settle = (o: Outcome) => {
    setOutcome(o);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOutcome('idle'), 4000);
  };

  const share = async () => {
    const url = link();
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url, ...(text ? { text } : {}) });
        settle('shared');
        return;
      } catch (err) {
        // Closing the share sheet is not a failure; any other refusal falls back to copying.
        if (err instanceof DOMException && err.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      settle('copied');
    } catch {
      settle('failed');
    }
  };

  const visible = outcome === 'copied' ? 'Link copied' : label;
  return (
    <span className="inline-flex flex-col gap-1">
      <Button
        type="button"
        variant={variant}
        size={size}
        className={className}
        onClick={() => void share()}
        {...(accessibleLabel && outcome !== 'copied' ? { 'aria-label': accessibleLabel } : {})}
      >
        {outcome === 'copied' ? <Check aria-hidden="true" className="size-4" /> : <Share2 aria-hidden="true" className="size-4" />}
        {visible}
      </Button>
      <span role="status" className={outcome === 'failed' ? 'max-w-64 text-xs break-all text-red-300' : 'sr-only'}>
        {outcome === 'copied'
          ? 'Link copied to the clipboard.'
          : outcome === 'shared'
            ? 'Shared.'
            : outcome === 'failed'
              ? `Copying is blocked here. The link: ${link()}`
              : ''}
      </span>
    </span>
  );
}

/** The absolute link to share: `path` on this origin, with the sharer's referral code when there is one. */
export function shareUrl(path: string, referralCode?: string | null): string {
  const url = new URL(path, window.location.origin);
  if (referralCode) url.searchParams.set('ref', referralCode);
  return url.toString();
}
