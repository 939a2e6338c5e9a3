import type { PeriodResult } from '@shared/contracts/dashboard';
import { cn, useCurrency } from '@web/components/ui';
import { formatFigure, formatBps, RESULT_HELP } from './format';

type Line = {
  key: keyof PeriodResult;
  label: string;
  /** +1: adds to the result; −1: a cost, shown with a minus. */
  effect: 1 | -1;
  /** A subtotal: bold, and marked as a loss below zero. */
  total?: boolean;
};

/** The lines of the statement, top to bottom: revenue, gross margin, net result. */
export const RESULT_LINES: readonly Line[] = [
  { key: 'packRevenueCents', label: 'Packs opened', effect: 1 },
  { key: 'promoCents', label: 'Promo credit', effect: -1 },
  { key: 'revenueCents', label: 'Revenue', effect: 1, total: true },
  { key: 'cardCostCents', label: 'Cost of cards from packs', effect: -1 },
  { key: 'buybackPaidCents', label: 'Buyback paid', effect: -1 },
  { key: 'returnedToStockCents', label: 'Cards back in stock', effect: 1 },
  { key: 'grossMarginCents', label: 'Gross margin', effect: 1, total: true },
  { key: 'shippingNetCents', label: 'Shipping, net of refunds', effect: 1 },
  { key: 'referralCents', label: 'Referral rewards', effect: -1 },
  { key: 'giveawaysCents', label: 'Drop prizes and grants', effect: -1 },
  { key: 'adjustmentsCents', label: 'Balance adjustments', effect: -1 },
  { key: 'chargebackCents', label: 'Chargebacks', effect: -1 },
  { key: 'netResultCents', label: 'Net result', effect: 1, total: true },
];

function Amount({ value, line, currency }: { value: number; line: Line; currency: string }) {
  const shown = line.effect * value;
  const loss = line.total && shown < 0;
  return (
    <span className={cn('tabular-nums', loss && 'text-red-200', line.total && 'font-semibold')}>
      {formatFigure('money', shown, currency)}
      {loss ? <span className="ml-1.5 text-xs font-medium">Loss</span> : null}
    </span>
  );
}

/**
 * The period's result as a profit and loss statement against the previous period, each line with
 * its definition underneath (what counts, and at what value), so the figures can be checked.
 */
export function ResultStatement({ result }: { result: { current: PeriodResult; previous: PeriodResult } }) {
  const currency = useCurrency();
  return (
    <div className="overflow-hidden rounded-xl border border-white/10 bg-surface/60">
      <table className="w-full border-collapse text-left text-sm" aria-describedby="dash-result-note">
        <caption className="sr-only">Result for the period and the previous period</caption>
        <thead className="border-b border-white/10 bg-white/[0.03] text-xs tracking-wide text-zinc-400 uppercase">
          <tr>
            <th scope="col" className="px-3 py-2.5 font-semibold sm:px-4">
              Line
            </th>
            <th scope="col" className="px-3 py-2.5 text-right font-semibold sm:px-4">
              This period
            </th>
            <th scope="col" className="px-3 py-2.5 text-right font-semibold sm:px-4">
              Previous
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-white/5">
          {RESULT_LINES.map((line) => (
            <tr key={line.key} data-line={line.key} className={line.total ? 'bg-white/[0.02]' : undefined}>
              <th scope="row" className="px-3 py-2.5 align-top font-normal sm:px-4">
                <span className={cn('block text-zinc-100', line.total && 'font-semibold text-white')}>{line.label}</span>
                <span className="mt-0.5 block max-w-prose text-xs leading-snug text-zinc-400">{RESULT_HELP[line.key]}</span>
                {line.key === 'grossMarginCents' ? (
                  <span className="mt-0.5 block text-xs text-zinc-300">
                    Margin: {formatBps(result.current.marginBps)} this period, {formatBps(result.previous.marginBps)} before
                  </span>
                ) : null}
              </th>
              <td className="px-3 py-2.5 text-right align-top whitespace-nowrap text-zinc-200 sm:px-4">
                <Amount value={result.current[line.key] as number} line={line} currency={currency} />
              </td>
              <td className="px-3 py-2.5 text-right align-top whitespace-nowrap text-zinc-400 sm:px-4">
                <Amount value={result.previous[line.key] as number} line={line} currency={currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p id="dash-result-note" className="border-t border-white/10 px-3 py-2.5 text-xs leading-snug text-zinc-400 sm:px-4">
        Every line comes from the ledger and the vaults and reconciles with them. No purchase cost is recorded for cards yet,
        so each is taken at its value when it was handed out.
      </p>
    </div>
  );
}
