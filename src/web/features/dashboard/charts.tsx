import { useId } from 'react';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SeriesPoint } from '@shared/contracts/dashboard';
import { formatMoney } from '@shared/money';
import { bucketLabel, marginSummary, seriesSummary } from './format';

/**
 * The dashboard's charts over time. This module is the only importer of recharts and is loaded
 * with React.lazy from the dashboard, so the chart library is a chunk of its own that only the
 * back office ever fetches (the public pages' JavaScript budget, bench/web.ts, never sees it).
 *
 * The drawings are hidden from assistive technology; each chart's accessible name is a one-line
 * summary and a visually hidden table carries every value.
 */

type Key = 'salesCents' | 'buybackCents' | 'opens' | 'signUps' | 'grossMarginCents';

const AXIS = { stroke: '#71717a', fontSize: 12 };
const GRID = 'rgba(255,255,255,0.08)';
const TOOLTIP = {
  contentStyle: { background: '#18181b', border: '1px solid rgba(255,255,255,0.15)', borderRadius: 8, color: '#f4f4f5' },
  labelStyle: { color: '#d4d4d8' },
  cursor: { fill: 'rgba(255,255,255,0.05)' },
} as const;

const compactMoney = (currency: string) => {
  const f = new Intl.NumberFormat('en-US', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
  return (cents: number) => f.format(cents / 100);
};
const count = new Intl.NumberFormat('en-US');
const fmtCount = (n: number) => count.format(n);

interface ChartFrameProps {
  title: string;
  summary: string;
  series: readonly SeriesPoint[];
  bucket: 'hour' | 'day';
  columns: Array<{ key: Key; label: string; fmt: (n: number) => string }>;
  children: React.ReactElement;
}

function ChartFrame({ title, summary, series, bucket, columns, children }: ChartFrameProps) {
  const id = useId();
  return (
    <figure aria-labelledby={`${id}-title`} className="relative min-w-0 rounded-2xl border border-white/10 bg-surface/80 p-4">
      <figcaption id={`${id}-title`} className="text-sm font-semibold text-white">
        {title}
      </figcaption>
      <div role="img" aria-label={summary} className="mt-3 h-56 w-full min-w-0">
        <ResponsiveContainer width="100%" height="100%" minWidth={0} initialDimension={{ width: 320, height: 224 }}>
          {children}
        </ResponsiveContainer>
      </div>
      <div className="sr-only">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{bucket === 'hour' ? 'Hour (UTC)' : 'Day'}</th>
              {columns.map((c) => (
                <th key={c.key} scope="col">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {series.map((p) => (
              <tr key={p.start}>
                <th scope="row">{bucketLabel(p.start, bucket)}</th>
                {columns.map((c) => (
                  <td key={c.key}>{c.fmt(p[c.key])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

export default function DashboardCharts({ series, bucket, currency }: { series: readonly SeriesPoint[]; bucket: 'hour' | 'day'; currency: string }) {
  const money = (n: number) => formatMoney(n, currency);
  const axisMoney = compactMoney(currency);
  const data = series.map((p) => ({ ...p, label: bucketLabel(p.start, bucket) }));
  const salesSummary = `${seriesSummary(series, 'salesCents', 'Pack sales', money, bucket)} ${seriesSummary(series, 'buybackCents', 'Buyback paid', money, bucket)}`;
  const common = { data, accessibilityLayer: false, margin: { top: 4, right: 8, bottom: 0, left: 0 } };
  const marginData = data.map((p) => ({ ...p, gain: Math.max(0, p.grossMarginCents), loss: Math.min(0, p.grossMarginCents) }));
  const x = <XAxis dataKey="label" tick={AXIS} stroke={AXIS.stroke} minTickGap={16} tickLine={false} />;

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="min-w-0 lg:col-span-2">
        <ChartFrame
          title="Sales against buyback"
          summary={salesSummary}
          series={series}
          bucket={bucket}
          columns={[
            { key: 'salesCents', label: 'Pack sales', fmt: money },
            { key: 'buybackCents', label: 'Buyback paid', fmt: money },
          ]}
        >
          <AreaChart {...common}>
            <CartesianGrid stroke={GRID} vertical={false} />
            {x}
            {/* At least $1 high: a quiet period otherwise labels every tick $0. */}
            <YAxis tick={AXIS} stroke={AXIS.stroke} tickFormatter={axisMoney} width={56} tickLine={false} domain={[0, (max: number) => Math.max(max, 100)]} />
            <Tooltip {...TOOLTIP} formatter={(v) => money(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 12, color: '#d4d4d8' }} />
            <Area isAnimationActive={false} type="monotone" dataKey="salesCents" name="Pack sales" stroke="#a78bfa" fill="#a78bfa" fillOpacity={0.2} strokeWidth={2} />
            <Area isAnimationActive={false} type="monotone" dataKey="buybackCents" name="Buyback paid" stroke="#fbbf24" fill="#fbbf24" fillOpacity={0.15} strokeWidth={2} />
          </AreaChart>
        </ChartFrame>
      </div>
      <div className="min-w-0 lg:col-span-2">
        <ChartFrame
          title="Gross margin"
          summary={marginSummary(series, money, bucket)}
          series={series}
          bucket={bucket}
          columns={[{ key: 'grossMarginCents', label: 'Gross margin', fmt: money }]}
        >
          {/* Gains and losses as two series stacked on zero: the legend names the losses in words. */}
          <BarChart {...common} data={marginData} stackOffset="sign">
            <CartesianGrid stroke={GRID} vertical={false} />
            {x}
            <YAxis tick={AXIS} stroke={AXIS.stroke} tickFormatter={axisMoney} width={56} tickLine={false} />
            <Tooltip {...TOOLTIP} formatter={(v) => money(Number(v))} />
            <Legend wrapperStyle={{ fontSize: 12, color: '#d4d4d8' }} />
            <Bar isAnimationActive={false} dataKey="gain" stackId="margin" name="Gross margin" fill="#34d399" />
            <Bar isAnimationActive={false} dataKey="loss" stackId="margin" name="Loss" fill="#f87171" />
          </BarChart>
        </ChartFrame>
      </div>
      <ChartFrame
        title="Pack opens"
        summary={seriesSummary(series, 'opens', 'Pack opens', fmtCount, bucket)}
        series={series}
        bucket={bucket}
        columns={[{ key: 'opens', label: 'Opens', fmt: fmtCount }]}
      >
        <BarChart {...common}>
          <CartesianGrid stroke={GRID} vertical={false} />
          {x}
          <YAxis tick={AXIS} stroke={AXIS.stroke} allowDecimals={false} width={40} tickLine={false} />
          <Tooltip {...TOOLTIP} formatter={(v) => fmtCount(Number(v))} />
          <Bar isAnimationActive={false} dataKey="opens" name="Opens" fill="#38bdf8" radius={[3, 3, 0, 0]} />
        </BarChart>
      </ChartFrame>
      <ChartFrame
        title="Sign-ups"
        summary={seriesSummary(series, 'signUps', 'Sign-ups', fmtCount, bucket)}
        series={series}
        bucket={bucket}
        columns={[{ key: 'signUps', label: 'Sign-ups', fmt: fmtCount }]}
      >
        <BarChart {...common}>
          <CartesianGrid stroke={GRID} vertical={false} />
          {x}
          <YAxis tick={AXIS} stroke={AXIS.stroke} allowDecimals={false} width={40} tickLine={false} />
          <Tooltip {...TOOLTIP} formatter={(v) => fmtCount(Number(v))} />
          <Bar isAnimationActive={false} dataKey="signUps" name="Sign-ups" fill="#34d399" radius={[3, 3, 0, 0]} />
        </BarChart>
      </ChartFrame>
    </div>
  );
}
