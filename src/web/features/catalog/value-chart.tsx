import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CartesianGrid, ComposedChart, Line, ResponsiveContainer, Scatter, Tooltip, XAxis, YAxis } from 'recharts';
import type { CardValueHistory } from '@shared/contracts/catalog';
import type { MarketSale } from '@shared/contracts/market';
import { formatCents, Skeleton, useCurrency } from '@web/components/ui';
import { formatDate } from '@web/lib/format';
import { valueHistoryQuery } from './api';

/**
 * The price chart of the card view. Loaded with React.lazy from the card dialog only, so recharts
 * never weighs on another page's JavaScript. The line is the shop's market value over time; the
 * dots are collectors' sales on the market (`sales`, from the card's comps), so each figure's
 * source is visible. Everyone gets the summary sentence, and screen readers a table of each.
 */
export default function ValueChart({ cardId, name, sales = [] }: { cardId: string; name: string; sales?: MarketSale[] }) {
  const q = useQuery(valueHistoryQuery(cardId));
  const currency = useCurrency();
  const titleId = useId();
  if (q.isPending) return <Skeleton className="h-44 w-full" />;
  if (q.isError) return <p className="text-sm text-zinc-400">The price history could not be loaded. Try again in a moment.</p>;
  const points = q.data.points;
  const money = (c: number) => formatCents(c, currency);
  const data = points.map((p) => ({ t: new Date(p.at).getTime(), v: p.valueCents }));
  const saleDots = sales.map((s) => ({ t: new Date(s.soldAt).getTime(), v: s.priceCents }));
  return (
    <figure aria-labelledby={titleId} className="min-w-0">
      <figcaption id={titleId} className="text-sm text-zinc-300">
        {summary(q.data, money)}
        {sales.length === 1 ? ' The dot is a sale between collectors on the market.' : sales.length ? ` The ${sales.length} dots are sales between collectors on the market.` : ''}
      </figcaption>
      {points.length > 1 || saleDots.length ? (
        <div role="img" aria-label={`Price chart of ${name}: ${summary(q.data, money)}`} className="mt-2 h-44 w-full min-w-0">
          <ResponsiveContainer width="100%" height="100%">
            <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
              <CartesianGrid stroke="rgba(255,255,255,0.08)" vertical={false} />
              <XAxis
                dataKey="t"
                type="number"
                scale="time"
                domain={['dataMin', 'dataMax']}
                tickFormatter={(t: number) => new Date(t).toLocaleDateString('en-US', { month: 'short', year: '2-digit' })}
                tick={{ fill: '#a1a1aa', fontSize: 11 }}
                stroke="rgba(255,255,255,0.2)"
                minTickGap={24}
              />
              <YAxis
                dataKey="v"
                width={56}
                tickFormatter={(v: number) => money(v).replace(/\.00$/, '')}
                tick={{ fill: '#a1a1aa', fontSize: 11 }}
                stroke="rgba(255,255,255,0.2)"
                domain={['auto', 'auto']}
              />
              <Tooltip
                formatter={(v, _n, item) => [money(Number(v)), item.payload && saleDots.includes(item.payload as (typeof saleDots)[number]) ? 'Market sale' : 'Shop value']}
                labelFormatter={(t) => formatDate(new Date(Number(t)))}
                contentStyle={{ background: '#18181b', border: '1px solid rgba(255,255,255,0.15)', borderRadius: 8, color: '#f4f4f5' }}
              />
              <Line type="monotone" dataKey="v" name="Shop value" stroke="#c084fc" strokeWidth={2} dot={{ r: 2.5, fill: '#c084fc' }} isAnimationActive={false} />
              {saleDots.length ? <Scatter data={saleDots} dataKey="v" name="Market sale" fill="#34d399" isAnimationActive={false} /> : null}
            </ComposedChart>
          </ResponsiveContainer>
        </div>
      ) : null}
      {/* In a clipped box: a table is never narrower than its content, so sr-only on the
          table itself still widened the page (4–7 px on a phone's card dialog). */}
      <div className="sr-only">
        <table>
          <caption>Market value of {name} over time</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={`${p.at}-${i}`}>
                <td>{formatDate(p.at)}</td>
                <td>{money(p.valueCents)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sales.length ? (
        <div className="sr-only">
          <table>
            <caption>Sales of {name} between collectors on the market</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Price</th>
              </tr>
            </thead>
            <tbody>
              {sales.map((s, i) => (
                <tr key={`${s.soldAt}-${i}`}>
                  <td>{formatDate(s.soldAt)}</td>
                  <td>{money(s.priceCents)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {points.length > 1 || saleDots.length ? (
        <p aria-hidden="true" className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-400">
          <span className="inline-flex items-center gap-1.5">
            <span className="h-0.5 w-4 rounded bg-[#c084fc]" /> The shop’s market value
          </span>
          {saleDots.length ? (
            <span className="inline-flex items-center gap-1.5">
              <span className="size-2 rounded-full bg-[#34d399]" /> A sale between collectors
            </span>
          ) : null}
        </p>
      ) : null}
    </figure>
  );
}

function summary(h: CardValueHistory, money: (c: number) => string): string {
  const first = h.points[0];
  const last = h.points.at(-1);
  if (!first || !last) return 'No price history yet.';
  if (h.points.length === 1) return `${money(last.valueCents)} since ${formatDate(first.at)}; no changes yet.`;
  const change = first.valueCents ? Math.round(((last.valueCents - first.valueCents) / first.valueCents) * 100) : 0;
  const trend = change > 0 ? `up ${change}%` : change < 0 ? `down ${-change}%` : 'unchanged';
  return `${trend[0]!.toUpperCase()}${trend.slice(1)} since ${formatDate(first.at)}: from ${money(first.valueCents)} to ${money(last.valueCents)}, ${h.points.length} prices recorded.`;
}
