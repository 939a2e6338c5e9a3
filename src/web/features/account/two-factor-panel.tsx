import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { PASSWORD_MAX, type Account } from '@shared/contracts/account';
import { Badge, Button, buttonClasses, Dialog, FormField, Input, Notice, Panel, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { accountApi, useRefreshAccount } from './api';
import { applyServerFields, errorText, retryText } from '@web/lib/api-errors';
import { BackupCodesView } from './backup-codes';

const stepUpSchema = z.object({
  password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX),
  code: z
    .string()
    .trim()
    .min(1, 'Enter a code from your authenticator app or a backup code.')
    .max(20, 'That code is too long.'),
});
type StepUp = z.infer<typeof stepUpSchema>;

/** Password + a fresh second factor, for turning two-factor off or replacing the backup codes. */
function StepUpForm({
  submitLabel,
  danger,
  onSubmit,
  onCancel,
}: {
  submitLabel: string;
  danger?: boolean;
  onSubmit: (v: StepUp) => Promise<void>;
  onCancel: () => void;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<StepUp>({
    resolver: zodResolver(stepUpSchema),
    defaultValues: { password: '', code: '' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await onSubmit(v);
    } catch (err) {
      if (err instanceof ApiClientError) {
        if (err.code === 'ACCOUNT_TEMPORARILY_LOCKED' || err.status === 429) {
          return setFormError(`Too many wrong codes: two-factor is locked for now. ${retryText(err.retryAfter)}`);
        }
        if (err.code === 'INVALID_PASSWORD') {
          return setError('password', { type: 'server', message: 'That password is not right.' }, { shouldFocus: true });
        }
        if (err.code === 'INVALID_CODE') {
          return setError('code', { type: 'server', message: 'That code is not right. Use the current code from your app, or an unused backup code.' }, { shouldFocus: true });
        }
        if (err.code === 'TOTP_CODE_ALREADY_USED') {
          return setError('code', { type: 'server', message: 'That code was already used. Wait for the next one from your app.' }, { shouldFocus: true });
        }
      }
      if (applyServerFields(err, setError, ['password', 'code'])) return;
      setFormError(errorText(err));
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {formError ? <Notice tone="danger">{formError}</Notice> : null}
      <FormField label="Password" error={formState.errors.password?.message} required>
        <Input type="password" autoComplete="current-password" {...register('password')} />
      </FormField>
      <FormField
        label="Authenticator or backup code"
        hint="The 6-digit code your app shows now, or one of your unused backup codes."
        error={formState.errors.code?.message}
        required
      >
        <Input autoComplete="one-time-code" spellCheck={false} {...register('code')} />
      </FormField>
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={formState.isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={formState.isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** Two-factor status with on (→ /register-mfa), off and new backup codes (both need a fresh code). */
export function TwoFactorPanel({ account, siteName }: { account: Account; siteName?: string }) {
  const refresh = useRefreshAccount();
  const [dialog, setDialog] = useState<'off' | 'codes' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const isStaff = account.role !== 'user';

  const disable = async (v: StepUp) => {
    await accountApi.disableTwoFactor(v.password, v.code);
    setDialog(null);
    await refresh();
    toast.success('Two-factor is off', 'Signing in now needs only your password.');
  };
  const regenerate = async (v: StepUp) => {
    const r = await accountApi.regenerateBackupCodes(v.password, v.code);
    setCodes(r.backupCodes);
  };
  const closeCodes = (open: boolean) => {
    if (open) return;
    setDialog(null);
    if (codes) toast.success('New backup codes saved', 'Your old backup codes no longer work.');
    setCodes(null);
  };

  return (
    <Panel
      id="two-factor"
      title="Two-factor authentication"
      description="A code from an authenticator app after your password, so a stolen password alone is not enough."
    >
      {account.twoFactorEnabled ? (
        <div className="space-y-4">
          <p className="flex items-center gap-2 text-sm text-zinc-200">
            <ShieldCheck aria-hidden="true" className="size-5 text-emerald-300" />
            Status: <Badge tone="success">On</Badge>
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => setDialog('codes')}>
              <KeyRound aria-hidden="true" className="size-4" /> New backup codes
            </Button>
            <Button variant="secondary" onClick={() => setDialog('off')}>
              <ShieldOff aria-hidden="true" className="size-4" /> Turn off
            </Button>
          </div>
          <Dialog
            open={dialog === 'off'}
            onOpenChange={(o) => !o && setDialog(null)}
            title="Turn off two-factor?"
            description="Signing in will need only your password. Your authenticator entry and backup codes stop working."
          >
            {isStaff ? (
              <Notice tone="warning" className="mb-4" live={false}>
                The back office requires two-factor: you will lose admin access until you set it up again.
              </Notice>
            ) : null}
            <StepUpForm submitLabel="Turn off two-factor" danger onSubmit={disable} onCancel={() => setDialog(null)} />
          </Dialog>
          <Dialog
            open={dialog === 'codes'}
            onOpenChange={closeCodes}
            title={codes ? 'Your new backup codes' : 'Create new backup codes'}
            description={codes ? undefined : 'Your current backup codes stop working and 10 new ones are shown once.'}
          >
            {codes ? (
              <div className="space-y-4">
                <BackupCodesView codes={codes} siteName={siteName} />
                <div className="flex justify-end">
                  <Button onClick={() => closeCodes(false)}>I saved them</Button>
                </div>
              </div>
            ) : (
              <StepUpForm submitLabel="Create new codes" onSubmit={regenerate} onCancel={() => setDialog(null)} />
            )}
          </Dialog>
        </div>
      ) : (
        <div className="space-y-4">
          <p className="flex items-center gap-2 text-sm text-zinc-200">
            <ShieldOff aria-hidden="true" className="size-5 text-amber-300" />
            Status: <Badge tone="warning">Off</Badge>
          </p>
          <p className="max-w-prose text-sm text-zinc-300">
            Set it up in about a minute with any authenticator app (1Password, Google Authenticator, Aegis…). You also get 10
            backup codes for when your phone is not at hand.
          </p>
          <Link
            to="/register-mfa"
            search={{ redirect: '/profile/privacy-and-security' } as never}
            className={buttonClasses({ variant: 'primary' })}
          >
            <ShieldCheck aria-hidden="true" className="size-4" /> Set up two-factor
          </Link>
        </div>
      )}
    </Panel>
  );
}
