import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { AdminReferralDetail } from '@shared/contracts/referrals';
import { voidReferralInputSchema } from '@shared/contracts/referrals';
import { Button, Checkbox, ConfirmDialog, EmptyState, FormField, Money, Notice, Panel, SkeletonText, Textarea, toast } from '@web/components/ui';
import { formatMoney } from '@shared/money';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { formatDateTime } from '@web/lib/format';
import { adminReferralQuery, useVoidReferral } from './admin-api';
import { REWARD_KIND_LABEL, STATUS_HELP, bpsToPercent } from './format';
import { LoadError, ReferralStatusBadge } from './parts';

const link = 'font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200';

/** /admin/referrals/$id: the two parties, status, the terms it was made under, rewards, and Void. */
export function AdminReferralScreen({ id }: { id: string }) {
  const q = useQuery({ ...adminReferralQuery(id), retry: (n, err) => !(err instanceof ApiClientError && err.status < 500) && n < 2 });
  if (q.isPending) return <SkeletonText lines={8} label="Loading the referral" />;
  if (q.isError) {
    if (q.error instanceof ApiClientError && q.error.status === 404) {
      return (
        <EmptyState
          title="No such referral"
          description="It may have been removed with an account, or the link is wrong."
          action={
            <Link to="/admin/referrals" className={link}>
              Back to referrals
            </Link>
          }
        />
      );
    }
    return <LoadError what="the referral" error={q.error} retry={() => void q.refetch()} />;
  }
  return <AdminReferralView r={q.data} />;
}

function AdminReferralView({ r }: { r: AdminReferralDetail }) {
  const canVoid = r.status !== 'voided' && r.status !== 'reversed';
  return (
    <div className="space-y-6">
      <Panel title="Referral" actions={canVoid ? <VoidButton r={r} /> : null}>
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <Item label="Referrer">
            <Link to="/admin/users/$id" params={{ id: r.referrer.id }} className={link}>
              {r.referrer.username}
            </Link>{' '}
            <span className="text-zinc-400">{r.referrer.email}</span>
          </Item>
          <Item label="Invited friend">
            <Link to="/admin/users/$id" params={{ id: r.referee.id }} className={link}>
              {r.referee.username}
            </Link>{' '}
            <span className="text-zinc-400">{r.referee.email}</span>
          </Item>
          <Item label="Status">
            <ReferralStatusBadge status={r.status} /> <span className="text-zinc-300">{STATUS_HELP[r.status]}</span>
          </Item>
          <Item label="Reason">{r.reason ?? '—'}</Item>
          <Item label="Code">
            <span className="font-mono">{r.code}</span>
          </Item>
          <Item label="Created">{formatDateTime(r.createdAt)}</Item>
          <Item label="Qualified">{r.qualifiedAt ? formatDateTime(r.qualifiedAt) : '—'}</Item>
          <Item label="Qualifying deposit">{r.qualifyingDepositId ? <span className="font-mono text-xs">{r.qualifyingDepositId}</span> : '—'}</Item>
          <Item label="Paid">
            <Money cents={r.paidCents} />
          </Item>
          <Item label="Clawed back">
            <Money cents={r.clawedBackCents} />
          </Item>
          {r.voidedAt ? (
            <Item label="Voided">
              {formatDateTime(r.voidedAt)}
              {r.voidedBy ? ` by ${r.voidedBy}` : ''}
            </Item>
          ) : null}
        </dl>
      </Panel>

      <Panel title="Terms it was made under" description="The share terms are fixed when the referral qualifies.">
        {r.shareBps === null ? (
          <p className="text-sm text-zinc-400">Not qualified yet: today's settings will apply when it does.</p>
        ) : (
          <dl className="grid gap-4 text-sm sm:grid-cols-3">
            <Item label="Share of purchases">{bpsToPercent(r.shareBps)}</Item>
            <Item label="Share cap">{r.shareCapCents !== null ? <Money cents={r.shareCapCents} /> : '—'}</Item>
            <Item label="Share paid so far">
              <Money cents={r.sharePaidCents} />
            </Item>
            <Item label="Share until">{r.shareUntil ? formatDateTime(r.shareUntil) : '—'}</Item>
          </dl>
        )}
      </Panel>

      <Panel title="Rewards">
        {r.rewards.length === 0 ? (
          <p className="text-sm text-zinc-400">Nothing paid yet.</p>
        ) : (
          <ul className="divide-y divide-white/5 text-sm" aria-label="Rewards">
            {r.rewards.map((w) => (
              <li key={w.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3">
                <span className="font-semibold text-white">
                  <Money cents={w.amountCents} />
                </span>
                <span>{REWARD_KIND_LABEL[w.kind]}</span>
                <span className="text-zinc-400">
                  to{' '}
                  <Link to="/admin/users/$id" params={{ id: w.userId }} className={link}>
                    {w.username}
                  </Link>{' '}
                  · {formatDateTime(w.createdAt)}
                </span>
                <span className="w-full text-zinc-400">
                  Journal entry: {w.journalEntryId ? <span className="font-mono text-xs text-zinc-200">{w.journalEntryId}</span> : 'none'}
                  {w.shortfallCents > 0 ? (
                    <>
                      {' '}
                      · shortfall <Money cents={w.shortfallCents} />
                    </>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-zinc-400 uppercase">{label}</dt>
      <dd className="mt-1 text-zinc-100">{children}</dd>
    </div>
  );
}

function VoidButton({ r }: { r: AdminReferralDetail }) {
  const voidIt = useVoidReferral(r.id);
  const [reason, setReason] = useState('');
  const [clawBack, setClawBack] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const cbId = useId();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" size="sm">
          Void
        </Button>
      }
      title="Void this referral?"
      description={`It stops: no reward or share is paid from now on. ${r.referee.username} keeps ${r.referrer.username} as referrer on record.`}
      confirmLabel="Void referral"
      variant="danger"
      onOpenChange={(o) => {
        if (!o) {
          setError(null);
          setFailure(null);
        }
      }}
      onConfirm={async () => {
        setFailure(null);
        const parsed = voidReferralInputSchema.safeParse({ reason, clawBack });
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? 'Give a reason.');
          throw new Error('invalid');
        }
        setError(null);
        try {
          const res = await voidIt.mutateAsync(parsed.data);
          toast.success('Referral voided', res.clawedBackCents > 0 ? `${formatMoney(res.clawedBackCents)} taken back in all.` : 'Nothing was taken back.');
        } catch (err) {
          const fieldMsg = err instanceof ApiClientError ? err.fields?.reason?.[0] : undefined;
          if (fieldMsg) setError(fieldMsg);
          else setFailure(errorText(err));
          throw err;
        }
      }}
    >
      <div className="space-y-4">
        {failure ? (
          <Notice tone="danger" title="Not voided">
            {failure}
          </Notice>
        ) : null}
        <FormField label="Reason" required hint="Kept in the audit log." error={error}>
          <Textarea rows={3} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} />
        </FormField>
        <div className="flex items-start gap-3">
          <Checkbox id={cbId} checked={clawBack} onChange={(e) => setClawBack(e.target.checked)} />
          <label htmlFor={cbId} className="text-sm text-zinc-200">
            Also take back what it paid (<Money cents={r.paidCents - r.clawedBackCents} />, never below zero)
          </label>
        </div>
      </div>
    </ConfirmDialog>
  );
}
