import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Ban, History, KeyRound, ShieldOff, Truck, Wallet } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { banUserSchema, type AdminUserDetail } from '@shared/contracts/admin-users';
import type { Role } from '@shared/contracts/me';
import {
  Badge,
  Button,
  buttonClasses,
  ConfirmDialog,
  Dialog,
  EmptyState,
  FormField,
  Input,
  Money,
  Notice,
  Panel,
  Skeleton,
  SkeletonText,
  Table,
  TBody,
  Td,
  Textarea,
  Th,
  THead,
  toast,
  Tr,
} from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { adminUserKeys, adminUsersApi, applyServerFields, errorText, userDetailQuery } from './api';
import { formatDateTime, plural } from '@web/lib/format';
import { RoleBadge, StatusBadge } from './controls';

export interface Viewer {
  id: string;
  role: Role;
}

/** Why this admin may not ban/reset this user, or null when they may (the server checks again). */
function manageBlock(viewer: Viewer, u: AdminUserDetail): string | null {
  if (u.id === viewer.id) return 'You cannot do this to your own account.';
  if (u.role === 'owner') return 'Owners cannot be banned or reset here.';
  if (u.role === 'admin' && viewer.role !== 'owner') return 'Only an owner can do this to an admin.';
  if (u.deletedAt) return 'This account was deleted.';
  return null;
}

const banFormSchema = z.object({
  reason: banUserSchema.shape.reason,
  until: z
    .string()
    .refine((v) => v === '' || !Number.isNaN(new Date(v).getTime()), 'Use a date and time.')
    .refine((v) => v === '' || new Date(v).getTime() > Date.now(), 'Pick an end in the future, or leave empty.'),
});
type BanForm = z.infer<typeof banFormSchema>;

function BanDialog({ user, onDone }: { user: AdminUserDetail; onDone: (u: AdminUserDetail) => void }) {
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<BanForm>({
    resolver: zodResolver(banFormSchema),
    defaultValues: { reason: '', until: '' },
    mode: 'onTouched',
  });
  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      const updated = await adminUsersApi.ban(user.id, {
        reason: v.reason,
        expiresAt: v.until ? new Date(v.until).toISOString() : null,
      });
      setOpen(false);
      reset();
      onDone(updated);
      toast.success(`${user.username} is banned`, 'Their sessions were ended and they were emailed the reason.');
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.expiresAt?.[0]) {
        return setError('until', { type: 'server', message: err.fields.expiresAt[0] }, { shouldFocus: true });
      }
      if (applyServerFields(err, setError, ['reason'])) return;
      setFormError(errorText(err));
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setFormError(null);
      }}
      title={`Ban ${user.username}?`}
      description="They are signed out everywhere at once, cannot sign in until the ban ends, and are emailed the reason."
      trigger={
        <Button variant="danger">
          <Ban aria-hidden="true" className="size-4" /> Ban…
        </Button>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {formError ? <Notice tone="danger">{formError}</Notice> : null}
        <FormField label="Reason" hint="Shown to the user when they try to sign in." error={formState.errors.reason?.message} required>
          <Textarea rows={3} maxLength={500} {...register('reason')} />
        </FormField>
        <FormField label="Ends (optional)" hint="Your local time. Leave empty to ban until someone unbans." error={formState.errors.until?.message}>
          <Input type="datetime-local" {...register('until')} />
        </FormField>
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => setOpen(false)} disabled={formState.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={formState.isSubmitting}>
            Ban user
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-zinc-400 uppercase">{label}</dt>
      <dd className="mt-1 text-sm break-words text-zinc-100">{children}</dd>
    </div>
  );
}

/** /admin/users/$id: profile, role, two-factor, sessions; ban, unban, reset two-factor. */
export function UserDetail({ id, viewer }: { id: string; viewer: Viewer }) {
  const q = useQuery(userDetailQuery(id));
  const qc = useQueryClient();

  if (q.isError) {
    const missing = q.error instanceof ApiClientError && q.error.status === 404;
    return (
      <Notice
        tone="danger"
        title={missing ? 'No such user' : 'This user could not load'}
        action={
          missing ? (
            <Link to="/admin/users" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              Back to users
            </Link>
          ) : (
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          )
        }
      >
        {missing ? 'The link may be old, or the id mistyped. Find the user in the list.' : errorText(q.error)}
      </Notice>
    );
  }
  if (!q.data) {
    return (
      <div className="space-y-6" aria-busy="true">
        <Skeleton className="h-44" />
        <SkeletonText lines={5} label="Loading the user" />
      </div>
    );
  }
  const u = q.data;
  const block = manageBlock(viewer, u);
  const banActive = u.banned && (!u.banExpires || Date.parse(u.banExpires) > Date.now());
  const locked = u.twoFactor.lockedUntil && Date.parse(u.twoFactor.lockedUntil) > Date.now();
  const update = (next: AdminUserDetail) => {
    qc.setQueryData(adminUserKeys.detail(id), next);
    void qc.invalidateQueries({ queryKey: ['admin-users', 'list'] });
    void qc.invalidateQueries({ queryKey: ['admin-users', 'audit'] });
  };
  const unban = async () => {
    try {
      update(await adminUsersApi.unban(u.id));
      toast.success(`${u.username} is unbanned`, 'They can sign in again.');
    } catch (err) {
      toast.error('Could not unban', errorText(err));
      throw err;
    }
  };
  const resetTwoFactor = async () => {
    try {
      update(await adminUsersApi.resetTwoFactor(u.id));
      toast.success('Two-factor reset', `${u.username} was signed out and emailed; they can set it up again after signing in.`);
    } catch (err) {
      toast.error('Could not reset two-factor', errorText(err));
      throw err;
    }
  };
  const links = [
    { to: '/admin/users/$id/balance' as const, label: 'Balance', icon: Wallet },
    { to: '/admin/users/$id/history' as const, label: 'History', icon: History },
    { to: '/admin/users/$id/shipping' as const, label: 'Shipping', icon: Truck },
  ];

  return (
    <div className="space-y-6">
      <nav aria-label="About this user" className="flex flex-wrap gap-2">
        {links.map((l) => (
          <Link key={l.to} to={l.to} params={{ id: u.id }} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            <l.icon aria-hidden="true" className="size-4" /> {l.label}
          </Link>
        ))}
        <Link
          to="/admin/history"
          search={{ targetType: 'user', targetId: u.id } as never}
          className={buttonClasses({ variant: 'secondary', size: 'sm' })}
        >
          <History aria-hidden="true" className="size-4" /> Audit log
        </Link>
      </nav>

      {u.id === viewer.id ? (
        <Notice tone="info" title="This is your own account" live={false}>
          You can look, but not adjust your balance or grant or revoke your cards: nobody does that to their own account,
          owners included. Ask another admin or the owner.
        </Notice>
      ) : null}

      <Panel
        id="profile"
        title={
          <span className="flex flex-wrap items-center gap-2">
            {u.username} <RoleBadge role={u.role} /> <StatusBadge u={u} />
          </span>
        }
        description={u.email}
      >
        <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
          <Fact label="User id">
            <span className="font-mono text-xs">{u.id}</span>
          </Fact>
          <Fact label="Email verified">{u.emailVerified ? 'Yes' : 'Not yet'}</Fact>
          <Fact label="Joined">{formatDateTime(u.createdAt)}</Fact>
          <Fact label="Last sign-in">{u.lastSignInAt ? formatDateTime(u.lastSignInAt) : 'Never'}</Fact>
          <Fact label="Last change">{formatDateTime(u.updatedAt)}</Fact>
          <Fact label="Age confirmed / terms">
            {u.ageConfirmedAt ? formatDateTime(u.ageConfirmedAt) : '—'} / {u.termsAcceptedAt ? formatDateTime(u.termsAcceptedAt) : '—'}
          </Fact>
          {u.deletedAt ? <Fact label="Deleted">{formatDateTime(u.deletedAt)}</Fact> : null}
        </dl>
      </Panel>

      <Panel id="money-summary" title="Money and cards" description="Vault value is at today's market values; totals are for the life of the account.">
        <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="user-summary">
          <Fact label="Balance">
            <Money cents={u.summary.balanceCents} />
          </Fact>
          <Fact label="Vault value">
            <Money cents={u.summary.vaultValueCents} /> <span className="text-zinc-400">({plural(u.summary.vaultCount, 'card')})</span>
          </Fact>
          <Fact label="Total deposited">
            <Money cents={u.summary.depositedCents} />
          </Fact>
          <Fact label="Spent on packs">
            <Money cents={u.summary.spentOnPacksCents} />
          </Fact>
          <Fact label="Buyback received">
            <Money cents={u.summary.buybackReceivedCents} />
          </Fact>
          <Fact label="Packs opened">{u.summary.openings}</Fact>
        </dl>
      </Panel>

      <Panel id="ban" title="Ban" description="Suspends the account: no sign-in, no spending, every session ended.">
        <div className="space-y-4">
          {banActive ? (
            <Notice tone="danger" title={u.banExpires ? `Banned until ${formatDateTime(u.banExpires)}` : 'Banned until unbanned'} live={false}>
              Reason: {u.banReason ?? 'none given'}
            </Notice>
          ) : (
            <p className="text-sm text-zinc-300">Not banned.</p>
          )}
          {block ? (
            <p className="text-sm text-zinc-400">{block}</p>
          ) : banActive ? (
            <ConfirmDialog
              title={`Unban ${u.username}?`}
              description="They can sign in and spend again at once."
              confirmLabel="Unban"
              onConfirm={unban}
              trigger={<Button variant="secondary">Unban</Button>}
            />
          ) : (
            <BanDialog user={u} onDone={update} />
          )}
        </div>
      </Panel>

      <Panel id="two-factor" title="Two-factor" description="For a user locked out of their authenticator and backup codes.">
        <div className="space-y-4">
          <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-200">
            Status: {u.twoFactor.enabled ? <Badge tone="success">On</Badge> : <Badge tone="warning">Off</Badge>}
            {locked ? <Badge tone="danger">Locked until {formatDateTime(u.twoFactor.lockedUntil!)}</Badge> : null}
            {u.twoFactor.failedAttempts > 0 ? (
              <span className="text-zinc-400">
                {plural(u.twoFactor.failedAttempts, 'wrong code')} in a row
              </span>
            ) : null}
          </p>
          {!u.twoFactor.enabled ? null : block ? (
            <p className="text-sm text-zinc-400">{block}</p>
          ) : (
            <ConfirmDialog
              title={`Reset two-factor for ${u.username}?`}
              description="Their authenticator and backup codes stop working, every session is ended, and they are emailed. Only do this after confirming who they are."
              confirmLabel="Reset two-factor"
              variant="danger"
              onConfirm={resetTwoFactor}
              trigger={
                <Button variant="secondary">
                  <ShieldOff aria-hidden="true" className="size-4" /> Reset two-factor…
                </Button>
              }
            />
          )}
          <p className="text-sm text-zinc-400">
            Forgot their password instead?{' '}
            <Link to="/admin/reset-password" search={{ email: u.email } as never} className="text-violet-300 underline hover:text-violet-200">
              <KeyRound aria-hidden="true" className="mr-1 inline size-4" />
              Send a reset link
            </Link>
          </p>
        </div>
      </Panel>

      <Panel id="sessions" title="Sessions" description="Where this user is signed in now.">
        {u.sessions.length === 0 ? (
          <EmptyState title="No active sessions" description="The user is signed out everywhere." />
        ) : (
          <Table caption={`Sessions of ${u.username}`} captionHidden>
            <THead>
              <Tr>
                <Th>Browser</Th>
                <Th>IP</Th>
                <Th>Last seen</Th>
                <Th>Signed in</Th>
                <Th>Expires</Th>
                <Th>Two-factor</Th>
              </Tr>
            </THead>
            <TBody>
              {u.sessions.map((s) => (
                <Tr key={s.id}>
                  <Td>{s.browser || 'Unknown'}</Td>
                  <Td className="font-mono text-xs">{s.ip ?? '—'}</Td>
                  <Td>{formatDateTime(s.lastSeenAt)}</Td>
                  <Td>{formatDateTime(s.createdAt)}</Td>
                  <Td>{formatDateTime(s.expiresAt)}</Td>
                  <Td>{s.mfaPassed ? <Badge tone="success">Passed</Badge> : <span className="text-zinc-400">No</span>}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        )}
      </Panel>
    </div>
  );
}
