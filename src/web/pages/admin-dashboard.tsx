import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { Money, PageHeader, Skeleton } from '@web/components/ui';
import { auditQuery, userListQuery } from '@web/features/admin-users/api';
import { useSession } from '@web/features/auth/session';
import { adminBuybacksQuery } from '@web/features/collection/api';
import { adminProductsQuery } from '@web/features/shop/admin/admin-api';
import { ADMIN_NAV } from '@web/layouts/admin-layout';

/** One figure read from an existing admin list (its total), with a link to that list. */
function Stat({ label, to, value, loading, failed, detail }: { label: string; to: string; value: ReactNode; loading: boolean; failed: boolean; detail?: ReactNode }) {
  return (
    <Link
      to={to}
      className="block rounded-2xl border border-white/10 bg-surface/80 p-4 hover:border-white/20 hover:bg-white/5"
    >
      <span className="block text-sm text-zinc-400">{label}</span>
      <span className="mt-1 block text-2xl font-semibold text-white tabular-nums">
        {loading ? <Skeleton className="h-7 w-16" /> : failed ? <span className="text-base text-zinc-400">Unavailable</span> : value}
      </span>
      {detail && !loading && !failed ? <span className="mt-1 block text-xs text-zinc-400">{detail}</span> : null}
    </Link>
  );
}

/** Today's first instant in UTC, as the buyback list's day filter and the audit filter take it. */
function todayUtc() {
  return new Date().toISOString().slice(0, 10);
}

/**
 * The figures the admin lists already count. (The full money dashboard is its own piece of work;
 * nothing here is estimated: each number is a list total the linked page shows too.)
 */
function Overview() {
  // Fixed for the visit, so the query keys stay stable.
  const [since] = useState(() => ({ day: todayUtc(), dayAgo: new Date(Date.now() - 24 * 3600_000).toISOString() }));
  const users = useQuery(userListQuery({ pageSize: 1 }));
  const banned = useQuery(userListQuery({ banned: 'true', pageSize: 1 }));
  const live = useQuery(adminProductsQuery({ status: 'live', pageSize: 1 }));
  const drafts = useQuery(adminProductsQuery({ status: 'draft', pageSize: 1 }));
  const buybacks = useQuery(adminBuybacksQuery({ from: since.day, pageSize: 1 }));
  const audit = useQuery(auditQuery({ from: since.dayAgo, pageSize: 1 }));
  const state = (q: { isPending: boolean; isError: boolean }) => ({ loading: q.isPending, failed: q.isError });
  return (
    <section aria-labelledby="dash-overview" className="mb-6">
      <h2 id="dash-overview" className="mb-3 text-sm font-semibold tracking-widest text-zinc-400 uppercase">
        At a glance
      </h2>
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        <Stat
          label="Accounts"
          to="/admin/users"
          value={users.data?.total}
          detail={banned.data ? `${banned.data.total} suspended` : undefined}
          {...state(users)}
        />
        <Stat
          label="Products on sale"
          to="/admin/products"
          value={live.data?.total}
          detail={drafts.data ? `${drafts.data.total} in draft` : undefined}
          {...state(live)}
        />
        <Stat
          label="Buybacks today (UTC)"
          to="/admin/buyback"
          value={buybacks.data?.summary.count}
          detail={buybacks.data ? <>paid <Money cents={buybacks.data.summary.totalCents} /></> : undefined}
          {...state(buybacks)}
        />
        <Stat label="Audit entries, last 24 hours" to="/admin/history" value={audit.data?.total} {...state(audit)} />
      </div>
    </section>
  );
}

/** The back office's front door: a few live figures, then every screen grouped as in the side navigation. */
export default function AdminDashboardPage() {
  const { data: me } = useSession();
  const isOwner = me?.user.role === 'owner';
  return (
    <>
      <PageHeader
        eyebrow="Back office"
        title="Dashboard"
        description="Everything that runs the shop, in one place. Changes you make here are written to the audit log."
      />
      <Overview />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {ADMIN_NAV.filter((g) => g.group !== 'Overview' || g.items.length > 1).map(({ group, items }) => (
          <section
            key={group}
            aria-labelledby={`dash-${group}`}
            className="rounded-2xl border border-white/10 bg-surface/80 p-5"
          >
            <h2 id={`dash-${group}`} className="text-sm font-semibold tracking-widest text-zinc-400 uppercase">
              {group}
            </h2>
            <ul className="mt-3 space-y-1">
              {items
                .filter((d) => d.path !== '/admin' && (d.access !== 'owner' || isOwner))
                .map((d) => (
                  <li key={d.id}>
                    <Link
                      to={d.path}
                      className="flex items-center justify-between rounded-lg px-2 py-1.5 text-zinc-200 hover:bg-white/5 hover:text-white"
                    >
                      {d.title}
                      <span aria-hidden="true" className="text-zinc-500">
                        →
                      </span>
                    </Link>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
