import { useMemo, useState } from 'react';
import { Link, Navigate, useRouter } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import qrcode from 'qrcode-generator';
import { Check, Copy, Download, KeyRound, ShieldCheck } from 'lucide-react';
import {
  Button,
  buttonClasses,
  Checkbox,
  FormField,
  Input,
  Notice,
  SkeletonText,
  toast,
} from '@web/components/ui';
import { authPost } from '@web/lib/auth-post';
import { retryText } from '@web/lib/api-errors';
import { AuthHeader } from '@web/features/auth/parts';
import { PasswordInput } from '@web/features/auth/parts';
import { useSession } from '@web/features/auth/session';
import { refreshSession } from '@web/features/auth/session-actions';
import { useRedirectTarget } from '@web/hooks/use-safe-redirect';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { ApiClientError } from '@web/lib/api';

interface Enrolment {
  totpURI: string;
  secret: string;
  backupCodes: string[];
}

function secretFrom(uri: string): string {
  try {
    return new URL(uri).searchParams.get('secret') ?? '';
  } catch {
    return /[?&]secret=([^&]+)/.exec(uri)?.[1] ?? '';
  }
}

function StepLabel({ n, of, children }: { n: number; of: number; children: string }) {
  return (
    <p className="mb-2 text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">
      Step {n} of {of} · {children}
    </p>
  );
}

function PasswordStep({ onEnrolled }: { onEnrolled: (e: Enrolment) => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const onSubmit = handleSubmit(async ({ password }) => {
    if (!password) return setError('password', { message: 'Enter your password.' }, { shouldFocus: true });
    setFailure(null);
    try {
      const res = await authPost<{ totpURI: string; backupCodes: string[] }>('/two-factor/enable', { password });
      onEnrolled({ totpURI: res.totpURI, secret: secretFrom(res.totpURI), backupCodes: res.backupCodes ?? [] });
    } catch (err) {
      if (err instanceof ApiClientError && (err.code === 'INVALID_PASSWORD' || err.fields?.password)) {
        setError('password', { message: err.fields?.password?.[0] ?? 'That password is not right.' }, { shouldFocus: true });
      } else if (err instanceof ApiClientError && err.status === 429) {
        setFailure(`Too many attempts. ${retryText(err.retryAfter)}`);
      } else {
        setFailure(err instanceof Error ? err.message : 'Something went wrong. Try again.');
      }
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <StepLabel n={1} of={3}>
        Confirm it is you
      </StepLabel>
      {failure ? <Notice tone="danger">{failure}</Notice> : null}
      <FormField label="Your password" error={errors.password?.message}>
        <PasswordInput autoComplete="current-password" autoFocus {...register('password')} />
      </FormField>
      <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Preparing…">
        Continue
      </Button>
    </form>
  );
}

/** `text` as a QR code (level M, one module of quiet zone inside the white tile's padding), as an SVG image address; null when it does not fit. */
function qrImage(text: string): string | null {
  try {
    const qr = qrcode(0, 'M');
    qr.addData(text);
    qr.make();
    return `data:image/svg+xml,${encodeURIComponent(qr.createSvgTag({ cellSize: 4, margin: 4 }))}`;
  } catch {
    return null;
  }
}

function ScanStep({ enrolment, onConfirmed }: { enrolment: Enrolment; onConfirmed: () => void }) {
  const queryClient = useQueryClient();
  // Drawn in the page: the secret never leaves the browser for a third-party QR service.
  const qr = useMemo(() => qrImage(enrolment.totpURI), [enrolment.totpURI]);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ code: string }>({ defaultValues: { code: '' } });

  const onSubmit = handleSubmit(async ({ code }) => {
    const clean = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(clean)) {
      return setError('code', { message: 'Enter the 6-digit code your app shows.' }, { shouldFocus: true });
    }
    setFailure(null);
    try {
      await authPost('/two-factor/verify-totp', { code: clean });
      await refreshSession(queryClient);
      onConfirmed();
    } catch (err) {
      if (err instanceof ApiClientError && (err.code === 'INVALID_CODE' || err.code === 'TOTP_CODE_ALREADY_USED')) {
        setError(
          'code',
          {
            message:
              err.code === 'INVALID_CODE'
                ? 'That code is not right. Check the time on your phone is set automatically, then try the current code.'
                : 'That code was already used. Wait for the next one.',
          },
          { shouldFocus: true },
        );
      } else if (err instanceof ApiClientError && err.status === 429) {
        setFailure(`Too many wrong codes. ${retryText(err.retryAfter)}`);
      } else {
        setFailure(err instanceof Error ? err.message : 'Something went wrong. Try again.');
      }
    }
  });

  const grouped = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <div className="space-y-5">
      <StepLabel n={2} of={3}>
        Add it to your app
      </StepLabel>
      <p className="text-sm text-zinc-300">
        Scan this code with an authenticator app (such as Google Authenticator, 1Password or Aegis), or type the key
        below into it.
      </p>
      <div className="flex justify-center">
        {qr ? (
          <img
            src={qr}
            width={216}
            height={216}
            alt="QR code to add this account to your authenticator app"
            className="rounded-xl bg-white p-2"
          />
        ) : (
          <Notice tone="warning">The QR code could not be drawn. Type the key below into your app instead.</Notice>
        )}
      </div>
      <div className="rounded-xl border border-white/10 bg-black/30 p-3">
        <p id="secret-label" className="text-xs text-zinc-400">
          Setup key (time-based, 6 digits)
        </p>
        <div className="mt-1 flex items-center gap-2">
          <code aria-labelledby="secret-label" className="flex-1 font-mono text-sm break-all text-gold-300">
            {grouped}
          </code>
          <Button
            variant="ghost"
            size="sm"
            onClick={() =>
              void navigator.clipboard
                ?.writeText(enrolment.secret)
                .then(() => toast.success('Setup key copied.'))
                .catch(() => toast.error('Could not copy. Select the key and copy it by hand.'))
            }
          >
            <Copy aria-hidden="true" className="size-4" /> Copy
          </Button>
        </div>
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {failure ? <Notice tone="danger">{failure}</Notice> : null}
        <FormField label="Code from your app" hint="Type the 6-digit code to confirm the app is set up." error={errors.code?.message}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            className="text-center font-mono text-xl tracking-[0.4em]"
            {...register('code')}
          />
        </FormField>
        <Button type="submit" size="lg" className="w-full" loading={isSubmitting} loadingText="Checking…">
          Turn on two-factor
        </Button>
      </form>
    </div>
  );
}

function BackupCodesStep({ codes, next }: { codes: string[]; next: string }) {
  const { siteName } = useSiteConfig();
  const router = useRouter();
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState(false);
  const text = `${siteName} backup codes\nEach code works once. Keep them somewhere safe.\n\n${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${siteName.toLowerCase().replace(/\W+/g, '-')}-backup-codes.txt`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <div className="space-y-5">
      <StepLabel n={3} of={3}>
        Save your backup codes
      </StepLabel>
      <Notice tone="success" title="Two-factor sign-in is on">
        From now on you will be asked for a code after your password.
      </Notice>
      <p className="text-sm text-zinc-300">
        If you lose your phone, each of these codes lets you sign in once.{' '}
        <strong className="text-white">This is the only time we show them</strong> — copy or download them now.
      </p>
      <ol aria-label="Backup codes" className="grid grid-cols-2 gap-2 rounded-xl border border-white/10 bg-black/30 p-4">
        {codes.map((c) => (
          <li key={c} className="text-center font-mono text-sm tracking-wide text-gold-300">
            {c}
          </li>
        ))}
      </ol>
      <div className="grid grid-cols-2 gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(codes.join('\n'))
              .then(() => setCopied(true))
              .catch(() => toast.error('Could not copy. Download the codes instead.'))
          }
        >
          {copied ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
          {copied ? 'Copied' : 'Copy all'}
        </Button>
        <Button variant="secondary" onClick={download}>
          <Download aria-hidden="true" className="size-4" /> Download
        </Button>
      </div>
      <FormField inline label="I have saved my backup codes somewhere safe">
        <Checkbox checked={saved} onChange={(e) => setSaved(e.target.checked)} />
      </FormField>
      <Button size="lg" className="w-full" disabled={!saved} onClick={() => router.history.push(next)}>
        Done
      </Button>
    </div>
  );
}

export default function RegisterMfaPage() {
  const { data: me, isPending } = useSession();
  const next = useRedirectTarget('/profile/privacy-and-security');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [confirmed, setConfirmed] = useState(false);

  if (isPending) return <SkeletonText lines={4} label="Loading your account" />;
  if (!me) return <Navigate to="/sign-in" search={{ redirect: '/register-mfa' } as never} replace />;

  const body = confirmed && enrolment ? (
    <BackupCodesStep codes={enrolment.backupCodes} next={next} />
  ) : me.user.twoFactorEnabled && !enrolment ? (
    <div className="space-y-4">
      <Notice tone="success" title="Two-factor sign-in is already on" live={false}>
        Manage it, or make new backup codes, in privacy and security.
      </Notice>
      <Link to="/profile/privacy-and-security" className={buttonClasses({ className: 'w-full' })}>
        Privacy and security
      </Link>
    </div>
  ) : enrolment ? (
    <ScanStep enrolment={enrolment} onConfirmed={() => setConfirmed(true)} />
  ) : (
    <PasswordStep onEnrolled={setEnrolment} />
  );

  return (
    <>
      <AuthHeader title="Set up two-factor" icon={enrolment ? <KeyRound /> : <ShieldCheck />}>
        {me.user.role !== 'user' && !me.user.twoFactorEnabled
          ? 'Admin screens need two-factor sign-in. Set it up once and you are in.'
          : 'Protect your cards and credit: after your password, sign-in will also ask for a code from your phone.'}
      </AuthHeader>
      {body}
    </>
  );
}
