import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useEffect, useState } from 'react';
import { formatRate, type AdminBuyback } from '@shared/contracts/collection';
import { parseMoney } from '@shared/money';
import {
  Button,
  EmptyState,
  FormField,
  Input,
  Money,
  Notice,
  Pagination,
  Panel,
  SkeletonText,
  TBody,
  THead,
  Table,
  Td,
  Th,
  Tr,
} from '@web/components/ui';
import { adminBuybacksQuery } from './api';
import { ClassFilter } from './class-filter';
import { formatDateTime, formatDay } from '@web/lib/format';
import { useDebounced } from '@web/hooks/use-debounced';

const PAGE_SIZE = 25;

/** The configured rate, or the range when a sale mixed classes with different rates. */
function saleRate(b: AdminBuyback): string {
  if (b.rateBp !== null) return formatRate(b.rateBp);
  if (!b.lines.length) return '—';
  const rates = b.lines.map((l) => l.rateBp);
  return `${formatRate(Math.min(...rates))}–${formatRate(Math.max(...rates))}`;
}

/** /admin/buyback: every sale with filters, totals over the filter, and totals per day. */
export function AdminBuybacks() {
  const [userText, setUserText] = useState('');
  const [classId, setClassId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [min, setMin] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const user = useDebounced(userText.trim());
  const minCents = min.trim() ? parseMoney(min) : undefined;
  const minInvalid = minCents === null;
  const q = {
    page,
    pageSize: PAGE_SIZE,
    ...(user ? { user } : {}),
    ...(classId ? { classId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(typeof minCents === 'number' ? { minCents } : {}),
  };
  useEffect(() => setPage(1), [user, classId, from, to, min]);
  const list = useQuery(adminBuybacksQuery(q));
  const data = list.data;

  return (
    <div className="space-y-6">
      <form
        role="search"
        aria-label="Filter buybacks"
        className="grid gap-3 rounded-2xl border border-white/10 bg-surface/70 p-4 sm:grid-cols-2 lg:grid-cols-5"
        onSubmit={(e) => e.preventDefault()}
      >
        <FormField label="User" hint="Username or email">
          <Input type="search" value={userText} onChange={(e) => setUserText(e.target.value)} />
        </FormField>
        <ClassFilter value={classId} onChange={setClassId} />
        <FormField label="From (UTC)">
          <Input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </FormField>
        <FormField label="To (UTC)">
          <Input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </FormField>
        <FormField label="Paid at least ($)" error={minInvalid ? 'Enter an amount like 10 or 2.50.' : undefined}>
          <Input inputMode="decimal" value={min} onChange={(e) => setMin(e.target.value)} placeholder="0.00" />
        </FormField>
      </form>

      {list.isError ? (
        <Notice
          tone="danger"
          title="We could not load the buybacks"
          action={
            <Button size="sm" variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          }
        >
          {list.error.message}
        </Notice>
      ) : !data ? (
        <SkeletonText lines={6} label="Loading buybacks" />
      ) : (
        <>
          <section aria-label="Totals" className="grid gap-3 sm:grid-cols-4">
            <Total label="Sales" value={String(data.summary.count)} />
            <Total label="Cards bought back" value={String(data.summary.cardCount)} />
            <Total label="Market value" value={<Money cents={data.summary.marketValueCents} />} />
            <Total label="Paid out" value={<Money cents={data.summary.totalCents} />} />
          </section>

          <Panel title="Daily totals" description="Per UTC day for the current filter (latest 31 days with sales).">
            {data.daily.length === 0 ? (
              <p className="px-5 py-4 text-sm text-zinc-400">No sales for this filter.</p>
            ) : (
              <div className="p-3">
                <Table caption="Buybacks per day" captionHidden>
                  <THead>
                    <Tr>
                      <Th>Day</Th>
                      <Th className="text-right">Sales</Th>
                      <Th className="text-right">Cards</Th>
                      <Th className="text-right">Paid out</Th>
                    </Tr>
                  </THead>
                  <TBody>
                    {data.daily.map((d) => (
                      <Tr key={d.day}>
                        <Td>{formatDay(d.day)}</Td>
                        <Td className="text-right tabular-nums">{d.count}</Td>
                        <Td className="text-right tabular-nums">{d.cardCount}</Td>
                        <Td className="text-right">
                          <Money cents={d.totalCents} />
                        </Td>
                      </Tr>
                    ))}
                  </TBody>
                </Table>
              </div>
            )}
          </Panel>

          {data.items.length === 0 ? (
            <EmptyState title="No buybacks" description="No sale matches these filters. Clear a filter or widen the dates." />
          ) : (
            <Table caption={`Buybacks (${data.total})`}>
              <THead>
                <Tr>
                  <Th>Time</Th>
                  <Th>User</Th>
                  <Th className="text-right">Cards</Th>
                  <Th className="text-right">Market value</Th>
                  <Th className="text-right">Rate</Th>
                  <Th className="text-right">Paid</Th>
                  <Th>
                    <span className="sr-only">Details</span>
                  </Th>
                </Tr>
              </THead>
              <TBody>
                {data.items.map((b) => (
                  <Fragment key={b.id}>
                    <Tr>
                      <Td className="whitespace-nowrap">{formatDateTime(b.createdAt)}</Td>
                      <Td>
                        <Link to="/admin/users/$id/history" params={{ id: b.userId }} className="text-violet-300 hover:underline">
                          {b.username ?? b.userId}
                        </Link>
                        {b.email ? <span className="block text-xs text-zinc-400">{b.email}</span> : null}
                      </Td>
                      <Td className="text-right tabular-nums">{b.cardCount}</Td>
                      <Td className="text-right">
                        <Money cents={b.marketValueCents} />
                      </Td>
                      <Td className="text-right">{saleRate(b)}</Td>
                      <Td className="text-right font-semibold text-emerald-300">
                        <Money cents={b.totalCents} />
                      </Td>
                      <Td>
                        <Button
                          size="sm"
                          variant="ghost"
                          aria-expanded={open === b.id}
                          aria-controls={`bb-${b.id}`}
                          onClick={() => setOpen(open === b.id ? null : b.id)}
                        >
                          {open === b.id ? 'Hide cards' : 'Show cards'}
                        </Button>
                      </Td>
                    </Tr>
                    {open === b.id ? (
                      <Tr id={`bb-${b.id}`}>
                        <Td colSpan={7} className="bg-white/[0.02]">
                          <ul className="space-y-1 text-sm">
                            {b.lines.map((l) => (
                              <li key={l.ownedCardId} className="flex flex-wrap justify-between gap-2">
                                <span>
                                  {l.name} <span className="text-zinc-400">({l.className})</span>
                                </span>
                                <span className="tabular-nums text-zinc-300">
                                  <Money cents={l.marketValueCents} /> × {formatRate(l.rateBp)} = <Money cents={l.amountCents} />
                                </span>
                              </li>
                            ))}
                          </ul>
                        </Td>
                      </Tr>
                    ) : null}
                  </Fragment>
                ))}
              </TBody>
            </Table>
          )}
          <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={setPage} label="Buyback pages" />
        </>
      )}
    </div>
  );
}

function Total({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-white/10 bg-surface/70 p-4">
      <p className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">{label}</p>
      <p className="mt-1 text-xl font-bold text-white">{value}</p>
    </div>
  );
}
