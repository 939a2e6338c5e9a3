import { zodResolver } from '@hookform/resolvers/zod';
import { Download, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { deleteAccountSchema, type Account } from '@shared/contracts/account';
import { formatMoney } from '@shared/money';
import { Button, buttonClasses, Checkbox, ConfirmDialog, FormField, Input, Notice, Panel } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { accountApi } from './api';
import { applyServerFields, errorText, retryText } from '@web/lib/api-errors';

/** A JSON download of everything held about the user (the browser saves the attachment). */
export function DataExportPanel() {
  return (
    <Panel
      id="data-export"
      title="Download your data"
      description="A JSON file with your account, sessions, two-factor status, mail we sent you, and your shop records."
    >
      <Button variant="secondary" asChild>
        <a href="/api/account/export" download>
          <Download aria-hidden="true" className="size-4" /> Download my data (JSON)
        </a>
      </Button>
    </Panel>
  );
}

type DeleteForm = { password: string; code: string; confirm: string };

export interface Holdings {
  balanceCents: number;
  currency: string;
  vaultCount: number;
  vaultValueCents: number;
}

/** "$12.00 of credit and 3 cards worth $45.00 in your vault" (only the parts that are there). */
export function holdingsText(h: Holdings): string {
  const parts: string[] = [];
  if (h.balanceCents > 0) parts.push(`${formatMoney(h.balanceCents, h.currency)} of credit`);
  if (h.vaultCount > 0) parts.push(`${h.vaultCount} ${h.vaultCount === 1 ? 'card' : 'cards'} worth ${formatMoney(h.vaultValueCents, h.currency)} in your vault`);
  return parts.join(' and ');
}

/**
 * Account deletion: password (and a second factor when on), typed confirmation, then a dialog that
 * says exactly what happens. `onDeleted` runs after the server has signed this browser out.
 */
export function DeleteAccountPanel({
  account,
  onDeleted,
  holdings,
}: {
  account: Account;
  onDeleted: () => Promise<void> | void;
  /** What the account still holds (the page reads the wallet and the vault); null while unknown. */
  holdings?: Holdings | null;
}) {
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const holds = !!holdings && (holdings.balanceCents > 0 || holdings.vaultCount > 0);
  const [formError, setFormError] = useState<string | null>(null);
  const needsCode = account.twoFactorEnabled;
  const schema = deleteAccountSchema.extend({
    code: needsCode
      ? z.string().trim().min(1, 'Enter a code from your authenticator app or a backup code.').max(20, 'That code is too long.')
      : z.string().optional(),
    confirm: z.string().refine((v) => v === 'DELETE', 'Type DELETE in capitals to confirm.'),
  });
  const { register, handleSubmit, setError, getValues, formState } = useForm<DeleteForm>({
    resolver: zodResolver(schema) as never,
    defaultValues: { password: '', code: '', confirm: '' },
    mode: 'onTouched',
  });

  const askToConfirm = handleSubmit(() => {
    setFormError(null);
    setConfirmOpen(true);
  });

  const doDelete = async () => {
    const v = getValues();
    try {
      await accountApi.deleteAccount({ password: v.password, code: needsCode ? v.code.trim() : undefined, confirm: 'DELETE' });
    } catch (err) {
      setConfirmOpen(false);
      if (err instanceof ApiClientError && err.status === 429) {
        setFormError(`Too many wrong codes: two-factor is locked for now. ${retryText(err.retryAfter)}`);
      } else if (!applyServerFields(err, setError, ['password', 'code', 'confirm'])) {
        setFormError(errorText(err));
      }
      return;
    }
    await onDeleted();
  };

  return (
    <Panel
      id="delete-account"
      title="Delete your account"
      description="Closes your account for good. This cannot be undone."
      className="border-red-400/30"
    >
      <form onSubmit={askToConfirm} noValidate className="max-w-md space-y-4">
        {holds ? (
          <Notice
            tone="danger"
            live={false}
            title={`You still have ${holdingsText(holdings!)}`}
            action={
              <div className="flex flex-wrap gap-2">
                {holdings!.vaultCount > 0 ? (
                  <Link to="/collect" className={buttonClasses({ size: 'sm' })}>
                    Ship or sell back your cards
                  </Link>
                ) : null}
                {holdings!.balanceCents > 0 ? (
                  <Link to="/shop" className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
                    Spend your credit
                  </Link>
                ) : null}
              </div>
            }
          >
            Deleting the account loses {holdings!.vaultCount > 0 ? 'them' : 'it'} for good: nothing can be used, sold back or shipped afterwards.
            {holdings!.vaultCount > 0 ? ' Ship your cards home (the fee comes from your credit) or sell them back first.' : ''}
          </Notice>
        ) : (
          <Notice tone="warning" live={false}>
            Anything left in your balance or your vault can no longer be used, sold back or shipped afterwards. Spend it,
            sell cards back or request shipping first.
          </Notice>
        )}
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <FormField label="Password" error={formState.errors.password?.message} required>
          <Input type="password" autoComplete="current-password" {...register('password')} />
        </FormField>
        {needsCode ? (
          <FormField
            label="Authenticator or backup code"
            hint="Two-factor is on, so we need a current code too."
            error={formState.errors.code?.message}
            required
          >
            <Input autoComplete="one-time-code" spellCheck={false} {...register('code')} />
          </FormField>
        ) : null}
        <FormField label="Type DELETE to confirm" error={formState.errors.confirm?.message} required>
          <Input autoComplete="off" spellCheck={false} {...register('confirm')} />
        </FormField>
        {holds ? (
          <FormField label={`I understand I lose ${holdingsText(holdings!)}`} inline>
            <Checkbox checked={understood} onChange={(e) => setUnderstood(e.currentTarget.checked)} />
          </FormField>
        ) : null}
        <Button type="submit" variant="danger" disabled={holds && !understood}>
          <Trash2 aria-hidden="true" className="size-4" /> Delete my account…
        </Button>
      </form>
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Delete your account now?"
        description="This is permanent. Here is exactly what happens:"
        confirmLabel="Delete my account"
        variant="danger"
        onConfirm={doDelete}
      >
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-zinc-300 wrap-anywhere">
          <li>You are signed out on every device, and this password and two-factor stop working.</li>
          <li>
            Your email ({account.email}), username ({account.username}) and personal details are erased or replaced with
            an anonymous placeholder; the username becomes free for others.
          </li>
          <li>Mail we sent you is deleted from our records.</li>
          <li>
            Payment and balance records are kept, without your name, for accounting.
          </li>
          <li>{holds ? `You lose ${holdingsText(holdings!)}.` : 'Any remaining balance and vault cards can no longer be used.'}</li>
        </ul>
      </ConfirmDialog>
    </Panel>
  );
}
