import { useState } from 'react';
import { Link, useSearch } from '@tanstack/react-router';
import { MailCheck } from 'lucide-react';
import { emailRule } from '@shared/contracts/account-rules';
import { Button, buttonClasses, FormField, Input, Notice } from '@web/components/ui';
import { authPost } from '@web/lib/auth-post';
import { retryText } from '@web/lib/api-errors';
import { AuthHeader, searchString } from '@web/features/auth/parts';
import { checkText } from '@web/features/auth/form-check';
import { useSession } from '@web/features/auth/session';
import { useCooldown } from '@web/hooks/use-cooldown';
import { ApiClientError } from '@web/lib/api';

const RESEND_COOLDOWN = 60;

export default function ConfirmRequestPage() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const { data: me } = useSession();
  const knownEmail = searchString(search, 'email') ?? me?.user.email;
  const [email, setEmail] = useState(knownEmail ?? '');
  const [emailError, setEmailError] = useState<string | null>(null);
  // Coming straight from sign-up or sign-in a mail was just sent: make the first resend wait.
  const cooldown = useCooldown(searchString(search, 'sent') ? RESEND_COOLDOWN : 0);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'danger' | 'warning'; text: string } | null>(null);

  if (me?.user.emailVerified) {
    return (
      <>
        <AuthHeader title="Your email is confirmed" icon={<MailCheck />}>
          {me.user.email} is verified. You are all set.
        </AuthHeader>
        <Link to="/home" className={buttonClasses({ size: 'lg', className: 'w-full' })}>
          Go to your home page
        </Link>
      </>
    );
  }

  const resend = async () => {
    const parsed = checkText(emailRule, email);
    if (!parsed.ok) {
      setEmailError(parsed.message);
      return;
    }
    setEmailError(null);
    setSending(true);
    setResult(null);
    try {
      await authPost('/send-verification-email', { email: parsed.value, callbackURL: '/home' });
      setResult({ tone: 'success', text: `If ${parsed.value} needs confirming, a new link is on its way.` });
      cooldown.start(RESEND_COOLDOWN);
    } catch (err) {
      if (err instanceof ApiClientError && err.status === 429) {
        setResult({ tone: 'warning', text: `You have asked for several emails already. ${retryText(err.retryAfter)}` });
        cooldown.start(err.retryAfter ?? RESEND_COOLDOWN);
      } else {
        setResult({ tone: 'danger', text: err instanceof Error ? err.message : 'Could not send the email. Try again.' });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <AuthHeader title="Check your email" icon={<MailCheck />}>
        {knownEmail ? (
          <>
            We sent a confirmation link to <strong className="text-white">{knownEmail}</strong>.
          </>
        ) : (
          'We sent you a confirmation link.'
        )}{' '}
        Open it on this device to confirm your address and sign in. You can browse the shop in the meantime, but you
        need a confirmed email before you can buy packs or enter daily drops.
      </AuthHeader>

      <div className="space-y-4 rounded-xl border border-white/10 bg-white/[0.02] p-4">
        <p className="text-sm font-semibold text-white">No email?</p>
        <ul className="list-disc space-y-1 pl-5 text-sm text-zinc-300">
          <li>Look in your spam or promotions folder.</li>
          <li>Check the address is spelled correctly.</li>
          <li>Links expire after a while; ask for a fresh one below.</li>
        </ul>
        {!knownEmail ? (
          <FormField label="Email" error={emailError}>
            <Input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </FormField>
        ) : null}
        {result ? <Notice tone={result.tone}>{result.text}</Notice> : null}
        <Button
          variant="secondary"
          className="w-full"
          onClick={resend}
          loading={sending}
          disabled={cooldown.remaining > 0}
          aria-describedby={cooldown.remaining > 0 ? 'resend-wait' : undefined}
        >
          Send the link again
        </Button>
        {cooldown.remaining > 0 ? (
          <p id="resend-wait" className="text-center text-xs text-zinc-400">
            You can ask again in {cooldown.remaining} s.
          </p>
        ) : null}
      </div>
      <p className="mt-6 text-center text-sm text-zinc-400">
        Wrong address?{' '}
        <Link to="/sign-up" className="font-medium text-violet-300 underline underline-offset-2">
          Sign up again
        </Link>{' '}
        ·{' '}
        <Link to="/shop" className="font-medium text-violet-300 underline underline-offset-2">
          Browse the shop
        </Link>
      </p>
    </>
  );
}
