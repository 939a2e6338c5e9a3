import { Link } from '@tanstack/react-router';
import type { ProductReturn } from '@shared/contracts/dashboard';
import { Badge, type BadgeTone, cn, Table, TBody, Td, Th, THead, Tr, useCurrency } from '@web/components/ui';
import { DRIFT_EXPLANATION, DRIFT_LABEL, DRIFT_MEANING, driftState, formatBps, formatFigure, formatZ, lossReason, sortProducts, type DriftState } from './format';
import { plural, verb } from '@web/lib/format';

const DRIFT_TONE: Record<DriftState, BadgeTone> = {
  high: 'danger',
  low: 'warning',
  fair: 'success',
  few: 'neutral',
  none: 'neutral',
};

/** The drift test's verdict; the title and the screen-reader text say what it means. */
export function DriftBadge({ product }: { product: Pick<ProductReturn, 'drift' | 'opens' | 'zScore'> }) {
  const state = driftState(product);
  return (
    // relative: the sr-only text is absolutely positioned; without a positioned ancestor inside the
    // table's scroll region it escapes the region's clipping and widens the page on phones.
    <span className="relative inline-flex flex-col gap-0.5">
      <Badge tone={DRIFT_TONE[state]} title={DRIFT_MEANING[state]}>
        {state === 'high' || state === 'low' ? <span aria-hidden="true">{state === 'high' ? '▲' : '▼'}</span> : null}
        {DRIFT_LABEL[state]}
      </Badge>
      <span className="sr-only">{DRIFT_MEANING[state]}</span>
    </span>
  );
}

/** Realised against expected return to players per product, drifting ones first. */
export function ProductReturns({ products }: { products: readonly ProductReturn[] }) {
  const drifting = products.filter((p) => p.drift).length;
  return (
    <div className="space-y-3">
      {products.length === 0 ? (
        <p className="text-sm text-zinc-400">No product was opened in this period.</p>
      ) : (
        <>
          <p className="text-sm text-zinc-300">
            {drifting === 0
              ? 'No product drifts beyond what chance explains.'
              : `${plural(drifting, 'product')} ${verb(drifting, 'drifts', 'drift')} beyond what chance explains.`}
          </p>
          <Table caption="Return to players by product">
            <THead>
              <tr>
                <Th>Product</Th>
                <Th className="text-right">Opens</Th>
                <Th className="text-right">Realised</Th>
                <Th className="text-right">Expected</Th>
                <Th className="text-right">z-score</Th>
                <Th>Drift test</Th>
              </tr>
            </THead>
            <TBody>
              {sortProducts(products).map((p) => (
                <Tr key={p.productId}>
                  <Td className="max-w-56 truncate">
                    <Link to="/admin/products/$id" params={{ id: p.productId }} className="font-medium text-white underline-offset-4 hover:underline">
                      {p.name}
                    </Link>
                  </Td>
                  <Td className="text-right tabular-nums">{p.opens.toLocaleString('en-US')}</Td>
                  <Td className={cn('text-right tabular-nums', (p.realisedRtpBps ?? 0) > 10_000 && 'text-red-200')}>
                    {formatBps(p.realisedRtpBps)}
                    {(p.realisedRtpBps ?? 0) > 10_000 ? <span className="ml-1.5 text-xs font-medium">over 100%</span> : null}
                  </Td>
                  <Td className="text-right tabular-nums">{formatBps(p.expectedRtpBps)}</Td>
                  <Td className="text-right tabular-nums">{formatZ(p.zScore)}</Td>
                  <Td>
                    <DriftBadge product={p} />
                  </Td>
                </Tr>
              ))}
            </TBody>
          </Table>
        </>
      )}
      <details className="text-sm text-zinc-400">
        <summary className="cursor-pointer text-zinc-300 hover:text-white">What does the drift test mean?</summary>
        <p className="mt-2 max-w-3xl leading-relaxed">
          Realised is the card value pulled as a share of the money taken for those openings; expected is what the
          product’s published odds promise. {DRIFT_EXPLANATION} “Drifting high” means players are getting back more
          than promised (the shop loses money); “drifting low” means less (players are short-changed).
        </p>
      </details>
    </div>
  );
}

/** A product's result: Loss (red, with the reason in words) or Profit. */
export function MarginBadge({ product }: { product: ProductReturn }) {
  const reason = lossReason(product);
  if (reason === null) return product.salesCents === 0 && product.grossMarginCents === 0 ? <Badge tone="neutral">No sales</Badge> : <Badge tone="success">Profit</Badge>;
  return (
    <span className="relative inline-flex flex-col gap-0.5">
      <Badge tone="danger" title={reason}>
        <span aria-hidden="true">▼</span>
        Loss
      </Badge>
      <span className="sr-only">{reason}</span>
    </span>
  );
}

/**
 * Sales, the cost of the cards handed out, buyback and gross margin per product over the period,
 * losses first: a product that hands out more card value than it takes is a loss in words, not
 * only in red.
 */
export function ProductMargins({ products }: { products: readonly ProductReturn[] }) {
  const currency = useCurrency();
  const money = (c: number) => formatFigure('money', c, currency);
  const sorted = [...products].sort((a, b) => Number(b.loss) - Number(a.loss) || a.grossMarginCents - b.grossMarginCents);
  const losses = products.filter((p) => p.loss).length;
  if (products.length === 0) return <p className="text-sm text-zinc-400">No product was opened in this period.</p>;
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-300">
        {losses === 0 ? 'Every product made money on its packs in this period.' : `${plural(losses, 'product')} lost money in this period.`}
      </p>
      <Table caption="Gross margin by product">
        <THead>
          <tr>
            <Th>Product</Th>
            <Th className="text-right">Sales</Th>
            <Th className="text-right">Cost of cards</Th>
            <Th className="text-right">Buyback paid</Th>
            <Th className="text-right">Back in stock</Th>
            <Th className="text-right">Gross margin</Th>
            <Th className="text-right">Margin</Th>
            <Th>Result</Th>
          </tr>
        </THead>
        <TBody>
          {sorted.map((p) => (
            <Tr key={p.productId} data-product={p.productId}>
              <Td className="max-w-56 truncate">
                <Link to="/admin/products/$id" params={{ id: p.productId }} className="font-medium text-white underline-offset-4 hover:underline">
                  {p.name}
                </Link>
              </Td>
              <Td className="text-right tabular-nums">{money(p.salesCents)}</Td>
              <Td className="text-right tabular-nums">{money(p.cardCostCents)}</Td>
              <Td className="text-right tabular-nums">{money(p.buybackPaidCents)}</Td>
              <Td className="text-right tabular-nums">{money(p.returnedToStockCents)}</Td>
              <Td className={cn('text-right font-medium tabular-nums', p.grossMarginCents < 0 ? 'text-red-200' : 'text-white')}>{money(p.grossMarginCents)}</Td>
              <Td className={cn('text-right tabular-nums', (p.marginBps ?? 0) < 0 && 'text-red-200')}>{formatBps(p.marginBps)}</Td>
              <Td>
                <MarginBadge product={p} />
              </Td>
            </Tr>
          ))}
        </TBody>
      </Table>
      <p className="max-w-3xl text-sm leading-relaxed text-zinc-400">
        Sales are the price paid for the packs opened; the cost of cards is what those packs handed out, at the cards’ value when
        pulled. Gross margin = sales − cost of cards − buyback paid + cards back in stock. A product whose cards are worth more than
        its sales (a realised return over 100%) is a loss even when buyback wins some back.
      </p>
    </div>
  );
}
