import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { CheckCircle2, XCircle } from 'lucide-react';
import { z } from 'zod';
import { changeUsernameSchema, emailSchema, usernameSchema, type Account } from '@shared/contracts/account';
import { Badge, Button, FormField, Input, Notice, Panel, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { accountApi, useRefreshAccount } from './api';
import { formatDate, formatDateTime } from '@web/lib/format';
import { applyServerFields, errorText } from '@web/lib/api-errors';

/** When the account was created, last signed in to, and what was agreed at sign-up. */
export function AccountFacts({ account }: { account: Account }) {
  const rows: Array<[string, React.ReactNode]> = [
    ['Member since', formatDate(account.createdAt)],
    ['Last sign-in', account.lastSignInAt ? formatDateTime(account.lastSignInAt) : 'Not recorded yet'],
    ['Last change to the account', formatDateTime(account.updatedAt)],
    ['Age confirmed (18+)', account.ageConfirmedAt ? formatDateTime(account.ageConfirmedAt) : 'Not recorded'],
    ['Terms accepted', account.termsAcceptedAt ? formatDateTime(account.termsAcceptedAt) : 'Not recorded'],
  ];
  return (
    <Panel id="account-dates" title="Account dates" description="Kept with your account and included in your data export.">
      <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt className="text-xs font-medium tracking-wide text-zinc-400 uppercase">{k}</dt>
            <dd className="mt-1 text-sm text-zinc-100">{v}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

type Availability = { state: 'idle' } | { state: 'checking' } | { state: 'free' } | { state: 'taken' } | { state: 'unknown' };

/** Username change with as-you-type availability (the server checks again on save). */
export function UsernameForm({ account }: { account: Account }) {
  const refresh = useRefreshAccount();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ username: string }>({
    resolver: zodResolver(changeUsernameSchema),
    defaultValues: { username: account.username },
    mode: 'onChange',
  });
  const { register, handleSubmit, setError, watch, reset, formState } = form;
  const username = watch('username');
  const [availability, setAvailability] = useState<Availability>({ state: 'idle' });

  useEffect(() => {
    const parsed = usernameSchema.safeParse(username);
    if (!parsed.success || parsed.data.toLowerCase() === account.username.toLowerCase()) {
      setAvailability({ state: 'idle' });
      return;
    }
    const ctrl = new AbortController();
    setAvailability({ state: 'checking' });
    const t = setTimeout(() => {
      accountApi
        .usernameAvailable(parsed.data, ctrl.signal)
        .then((r) => setAvailability({ state: r.available ? 'free' : 'taken' }))
        .catch((err: unknown) => {
          if ((err as Error).name !== 'AbortError') setAvailability({ state: 'unknown' });
        });
    }, 350);
    return () => {
      clearTimeout(t);
      ctrl.abort();
    };
  }, [username, account.username]);

  const unchanged = username.trim() === account.username;
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const updated = await accountApi.changeUsername(values.username);
      reset({ username: updated.username });
      await refresh();
      toast.success('Username changed', `You are now ${updated.username}.`);
    } catch (err) {
      if (err instanceof ApiClientError && err.code === 'username_taken') {
        setAvailability({ state: 'taken' });
        return setError('username', { type: 'server', message: 'That username is taken. Try another.' }, { shouldFocus: true });
      }
      if (applyServerFields(err, setError, ['username'])) return;
      setFormError(errorText(err));
    }
  });

  const hint =
    availability.state === 'checking' ? (
      'Checking…'
    ) : availability.state === 'free' ? (
      <span className="inline-flex items-center gap-1 text-emerald-300">
        <CheckCircle2 aria-hidden="true" className="size-4" /> Available
      </span>
    ) : availability.state === 'taken' ? (
      <span className="inline-flex items-center gap-1 text-red-300">
        <XCircle aria-hidden="true" className="size-4" /> Taken — try another
      </span>
    ) : (
      '3–20 letters, digits, _ or -. Shown publicly next to your pulls.'
    );

  return (
    <Panel id="username" title="Username" description="Your public name in the shop. It must be unique (ignoring case).">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <FormField label="Username" hint={<span aria-live="polite">{hint}</span>} error={formState.errors.username?.message} required>
          <Input autoComplete="username" spellCheck={false} {...register('username')} />
        </FormField>
        <Button type="submit" loading={formState.isSubmitting} disabled={unchanged || availability.state === 'taken'}>
          Save username
        </Button>
      </form>
    </Panel>
  );
}

/** Email change: approved from the current address, then verified at the new one. */
export function EmailForm({ account }: { account: Account }) {
  const [formError, setFormError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const schema = z.object({
    newEmail: emailSchema.refine((v) => v.toLowerCase() !== account.email.toLowerCase(), 'That is already your email address.'),
  });
  const { register, handleSubmit, setError, reset, formState } = useForm<{ newEmail: string }>({
    resolver: zodResolver(schema),
    defaultValues: { newEmail: '' },
    mode: 'onTouched',
  });
  const onSubmit = handleSubmit(async ({ newEmail }) => {
    setFormError(null);
    try {
      await accountApi.changeEmail(newEmail.trim());
      setSentTo(newEmail.trim());
      reset({ newEmail: '' });
      toast.success('Check your inbox', `We emailed ${account.email} to approve the change.`);
    } catch (err) {
      if (applyServerFields(err, setError, ['newEmail'], { email: 'newEmail' })) return;
      if (err instanceof ApiClientError && (err.code === 'INVALID_EMAIL' || /same/i.test(err.message))) {
        return setError('newEmail', { type: 'server', message: err.message }, { shouldFocus: true });
      }
      setFormError(errorText(err));
    }
  });

  return (
    <Panel
      id="email"
      title="Email address"
      description="Where we send receipts, shipping updates and security notices."
    >
      <div className="space-y-4">
        <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-300">
          Current address: <span className="min-w-0 font-medium text-white wrap-anywhere">{account.email}</span>
          {account.emailVerified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
        </p>
        {sentTo ? (
          <Notice tone="success" title="Two steps to finish" className="wrap-anywhere">
            1. Open the link we sent to <strong>{account.email}</strong> to approve the change. 2. Then open the verification
            link we send to <strong>{sentTo}</strong>. Your email changes only after that; until then you keep signing in with{' '}
            {account.email}. No mail? Check spam, or send the request again.
          </Notice>
        ) : null}
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <FormField label="New email address" error={formState.errors.newEmail?.message} required>
            <Input type="email" autoComplete="email" inputMode="email" {...register('newEmail')} />
          </FormField>
          <Button type="submit" loading={formState.isSubmitting}>
            Change email
          </Button>
        </form>
      </div>
    </Panel>
  );
}
