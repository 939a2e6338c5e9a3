import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { Dashboard } from '@shared/contracts/dashboard';
import { SHIPMENT_STATUS_LABEL, SHIPMENT_STATUSES, type ShipmentStatus } from '@shared/contracts/shipping';
import { KIND_HOUSE_ACCOUNTS, LEDGER_KIND_LABELS, LEDGER_KINDS, type LedgerKind } from '@shared/contracts/wallet';
import { Badge, cn } from '@web/components/ui';
import { formatAge } from './format';
import { plural, verb } from '@web/lib/format';

type Attention = Dashboard['attention'];

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const link = 'font-medium text-violet-300 underline-offset-4 hover:text-violet-200 hover:underline';

function Block({ id, title, count, tone, children }: { id: string; title: string; count?: number; tone?: 'danger' | 'warning' | 'success'; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-2xl border border-white/10 bg-surface/80 p-4">
      <h3 id={id} className="flex items-center gap-2 text-sm font-semibold text-white">
        {title}
        {count !== undefined ? <Badge tone={count > 0 ? (tone ?? 'warning') : 'neutral'}>{count}</Badge> : null}
      </h3>
      <div className="mt-3 text-sm">{children}</div>
    </section>
  );
}

const Empty = ({ children }: { children: ReactNode }) => <p className="text-zinc-400">{children}</p>;

function Stock({ items }: { items: Attention['stock'] }) {
  return (
    <Block id="attention-stock" title="Low or sold out" count={items.length}>
      {items.length === 0 ? (
        <Empty>Every class and product has stock.</Empty>
      ) : (
        <ul className="divide-y divide-white/5">
          {items.map((s) => (
            <li key={`${s.kind}-${s.id}`} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
              <span className="min-w-0 break-words">
                <span className="mr-1.5 text-xs text-zinc-400 uppercase">{s.kind === 'class' ? 'Class' : 'Product'}</span>
                {s.kind === 'class' ? (
                  <Link to="/admin/class/$id" params={{ id: s.id }} className={link}>
                    {s.name}
                  </Link>
                ) : (
                  <Link to="/admin/products/$id" params={{ id: s.id }} className={link}>
                    {s.name}
                  </Link>
                )}
              </span>
              {s.status === 'sold_out' ? (
                <Badge tone="danger">Sold out</Badge>
              ) : (
                <Badge tone="warning">
                  Low: {s.kind === 'class' ? plural(s.remaining, 'copy', 'copies') : plural(s.remaining, 'pack')} left
                </Badge>
              )}
            </li>
          ))}
        </ul>
      )}
    </Block>
  );
}

const isShipmentStatus = (s: string): s is ShipmentStatus => (SHIPMENT_STATUSES as readonly string[]).includes(s);

function Shipping({ rows }: { rows: Attention['shipping'] }) {
  const waiting = rows.reduce((n, r) => n + r.count, 0);
  return (
    <Block id="attention-shipping" title="Shipping queue" count={waiting}>
      {rows.length === 0 ? (
        <Empty>Nothing waiting to ship.</Empty>
      ) : (
        <ul className="divide-y divide-white/5">
          {rows.map((r) => (
            <li key={r.status} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-2">
              <Link to="/admin/shipping" search={{ status: r.status } as never} className={link}>
                {isShipmentStatus(r.status) ? SHIPMENT_STATUS_LABEL[r.status] : r.status}: {r.count}
              </Link>
              <span className={cn('text-zinc-400', (r.oldestAgeSeconds ?? 0) >= 3 * 86_400 && 'text-amber-200')}>
                oldest {formatAge(r.oldestAgeSeconds)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2">
        <Link to="/admin/shipping" className={link}>
          Open the queue
        </Link>
      </p>
    </Block>
  );
}

function Drops({ items, now }: { items: Attention['dropsClosingSoon']; now: number }) {
  return (
    <Block id="attention-drops" title="Drops closing soon" count={items.length}>
      {items.length === 0 ? (
        <Empty>No drop closes soon.</Empty>
      ) : (
        <ul className="divide-y divide-white/5">
          {items.map((d) => (
            <li key={d.id} className="py-2">
              <Link to="/admin/daily/$id" params={{ id: d.id }} className={cn(link, 'break-words')}>
                {d.title}
              </Link>
              <span className="block text-zinc-400">
                {Date.parse(d.closesAt) <= now ? 'closing now' : `closes in ${formatAge(Math.round((Date.parse(d.closesAt) - now) / 1000))}`} ·{' '}
                {plural(d.entries, 'entry', 'entries')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Block>
  );
}

function FailedMail({ mail }: { mail: Attention['failedMail'] }) {
  return (
    <Block id="attention-mail" title="Failed mail" count={mail.count} tone="danger">
      {mail.count === 0 ? (
        <Empty>No mail failed.</Empty>
      ) : (
        <ul className="divide-y divide-white/5">
          {mail.recent.map((m) => (
            <li key={m.id} className="min-w-0 py-2">
              <span className="block font-medium break-words text-zinc-100">{m.subject}</span>
              <span className="block break-all text-zinc-400">to {m.to}</span>
              <span className="block text-zinc-400">
                {plural(m.attempts, 'attempt')}, last {dateTime.format(new Date(m.failedAt))}
              </span>
              {m.lastError ? <span className="block break-words text-red-200">{m.lastError}</span> : null}
            </li>
          ))}
          {mail.count > mail.recent.length ? <li className="py-2 text-zinc-400">and {mail.count - mail.recent.length} more</li> : null}
        </ul>
      )}
    </Block>
  );
}

interface Misrouted {
  entryId: string;
  kind: string;
  account: string;
  amountCents?: number;
}

/** The misrouted entries a routing check found (its details are free-form JSON, so read them defensively). */
export function misroutedEntries(details: Record<string, unknown>): Misrouted[] {
  const list = Array.isArray(details.entries) ? (details.entries as unknown[]) : [];
  return list.flatMap((e) => {
    const o = e as Partial<Misrouted> | null;
    return o && typeof o.entryId === 'string' && typeof o.kind === 'string' && typeof o.account === 'string' ? [o as Misrouted] : [];
  });
}

const isLedgerKind = (k: string): k is LedgerKind => (LEDGER_KINDS as readonly string[]).includes(k);

/** Entries whose house leg sits on an account their kind may not touch: one line each, with where it should have gone. */
function MisroutedList({ details }: { details: Record<string, unknown> }) {
  const entries = misroutedEntries(details);
  const total = typeof details.misrouted === 'number' ? details.misrouted : entries.length;
  return (
    <div className="mt-1">
      <p className="text-zinc-300">
        {plural(total, 'entry', 'entries')} {verb(total, 'was', 'were')} posted to a house account its kind may not touch. Correct each with a reversing entry and
        find what wrote it outside the wallet.
      </p>
      <ul aria-label="Misrouted entries" className="mt-1 divide-y divide-white/5">
        {entries.map((e) => (
          <li key={`${e.entryId}-${e.account}`} className="min-w-0 py-1.5" data-entry-id={e.entryId}>
            <span className="block text-zinc-100">
              {isLedgerKind(e.kind) ? LEDGER_KIND_LABELS[e.kind] : e.kind} posted to <code className="text-red-200">{e.account}</code>
            </span>
            <span className="block break-all text-xs text-zinc-400">entry {e.entryId}</span>
            {isLedgerKind(e.kind) ? (
              <span className="block text-xs text-zinc-400">allowed: {KIND_HOUSE_ACCOUNTS[e.kind].join(', ')}</span>
            ) : null}
          </li>
        ))}
        {total > entries.length ? <li className="py-1.5 text-zinc-400">and {total - entries.length} more</li> : null}
      </ul>
    </div>
  );
}

export function Reconciliation({ rec }: { rec: Attention['reconciliation'] }) {
  return (
    <Block id="attention-books" title="Reconciliation">
      <p className="flex flex-wrap items-center gap-2">
        {rec.status === 'ok' ? (
          <Badge tone="success">Books balance</Badge>
        ) : rec.status === 'failed' ? (
          <Badge tone="danger">{plural(rec.failures.length, 'check')} failed</Badge>
        ) : (
          <Badge tone="warning">Never run</Badge>
        )}
        <span className="text-zinc-400">{rec.checkedAt ? `checked ${dateTime.format(new Date(rec.checkedAt))}` : 'The scheduled check has not run yet.'}</span>
      </p>
      {rec.failures.length ? (
        <ul className="mt-2 space-y-2">
          {rec.failures.map((f) => (
            <li key={f.name} className="min-w-0">
              <span className="block font-medium text-red-200">{f.name}</span>
              {f.name === 'entries_on_allowed_accounts' ? (
                <MisroutedList details={f.details} />
              ) : (
                <pre tabIndex={0} role="region" aria-label={`What ${f.name} found`} className="mt-1 max-h-40 overflow-auto rounded-lg bg-black/30 p-2 text-xs break-all whitespace-pre-wrap text-zinc-300">
                  {JSON.stringify(f.details, null, 2)}
                </pre>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </Block>
  );
}

/** What needs someone's attention now, each entry linking to the screen that fixes it. */
export function AttentionLists({ attention, now = Date.now() }: { attention: Attention; now?: number }) {
  return (
    <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
      <Stock items={attention.stock} />
      <Shipping rows={attention.shipping} />
      <Drops items={attention.dropsClosingSoon} now={now} />
      <FailedMail mail={attention.failedMail} />
      <Reconciliation rec={attention.reconciliation} />
    </div>
  );
}
