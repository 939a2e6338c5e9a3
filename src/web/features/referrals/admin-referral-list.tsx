import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Users } from 'lucide-react';
import { REFERRAL_STATUSES, type ReferralStatus } from '@shared/contracts/referrals';
import { EmptyState, Money, Pagination, SkeletonText, TBody, THead, Table, Td, Th, Tr, cn } from '@web/components/ui';
import { SearchBox, StatusChips } from '@web/components/ui/list-controls';
import { formatDate } from '@web/lib/format';
import { useUrlState } from '@web/lib/url-state';
import { adminReferralsQuery } from './admin-api';
import { STATUS_LABEL } from './format';
import { LoadError, ReferralStatusBadge } from './parts';

const PAGE_SIZE = 25;
const URL_DEFAULTS = { status: '', q: '', page: '1' };
const link = 'font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200';

/** /admin/referrals: every referral, newest first, with counts per status and a search. */
export function AdminReferralList() {
  const [s, set] = useUrlState(URL_DEFAULTS);
  const page = Number(s.page) || 1;
  const status = (REFERRAL_STATUSES as readonly string[]).includes(s.status) ? (s.status as ReferralStatus) : undefined;
  const list = useQuery(adminReferralsQuery({ status, q: s.q || undefined, page, pageSize: PAGE_SIZE }));
  const data = list.data;
  const counts = data?.counts;
  const total = counts ? Object.values(counts).reduce((a, b) => a + b, 0) : undefined;
  const chips = [
    { value: '', label: 'All', count: total },
    ...REFERRAL_STATUSES.map((st) => ({ value: st, label: STATUS_LABEL[st], count: counts?.[st] ?? (counts ? 0 : undefined) })),
  ];
  return (
    <div className="space-y-5">
      <StatusChips label="Referrals by status" chips={chips} value={s.status} onChange={(v) => set({ status: v })} />
      <div role="search" aria-label="Search referrals" className="flex flex-wrap items-end gap-3">
        <SearchBox label="Search" value={s.q} onChange={(v) => set({ q: v })} placeholder="Username, email or code" />
      </div>
      {list.isError ? (
        <LoadError what="the referrals" error={list.error} retry={() => void list.refetch()} />
      ) : !data ? (
        <SkeletonText lines={6} label="Loading referrals" />
      ) : data.items.length === 0 ? (
        <EmptyState
          icon={<Users />}
          title={s.q || status ? 'No referral matches' : 'No referral yet'}
          description={s.q || status ? 'Try another status or search.' : 'Referrals appear when someone signs up through an invite link or enters a code.'}
        />
      ) : (
        <>
          <Table caption={`Referrals (${data.total}), newest first`} captionHidden className={cn(list.isPlaceholderData && 'opacity-60')} aria-busy={list.isPlaceholderData || undefined}>
            <THead>
              <Tr>
                <Th>Referral</Th>
                <Th>Referrer</Th>
                <Th>Friend</Th>
                <Th>Code</Th>
                <Th>Status</Th>
                <Th>Created</Th>
                <Th>Qualified</Th>
                <Th className="text-right">Paid</Th>
                <Th className="text-right">Clawed back</Th>
              </Tr>
            </THead>
            <TBody>
              {data.items.map((r) => (
                <Tr key={r.id}>
                  <Td>
                    <Link to="/admin/referrals/$id" params={{ id: r.id }} className={link}>
                      Open<span className="sr-only"> the referral of {r.referee.username} by {r.referrer.username}</span>
                    </Link>
                  </Td>
                  <Td>
                    <span className="block text-white">{r.referrer.username}</span>
                    <span className="block text-xs text-zinc-400">{r.referrer.email}</span>
                  </Td>
                  <Td>
                    <span className="block text-white">{r.referee.username}</span>
                    <span className="block text-xs text-zinc-400">{r.referee.email}</span>
                  </Td>
                  <Td className="font-mono">{r.code}</Td>
                  <Td>
                    <ReferralStatusBadge status={r.status} />
                  </Td>
                  <Td className="whitespace-nowrap">
                    <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
                  </Td>
                  <Td className="whitespace-nowrap">{r.qualifiedAt ? <time dateTime={r.qualifiedAt}>{formatDate(r.qualifiedAt)}</time> : '—'}</Td>
                  <Td className="text-right">
                    <Money cents={r.paidCents} />
                  </Td>
                  <Td className="text-right">
                    <Money cents={r.clawedBackCents} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination
            page={page}
            pageCount={Math.max(1, Math.ceil(data.total / PAGE_SIZE))}
            onPageChange={(p) => set({ page: String(p) }, { keepPage: true })}
            label="Referral pages"
          />
        </>
      )}
    </div>
  );
}
