import { Link } from '@tanstack/react-router';
import type { ProductReturn } from '@shared/contracts/dashboard';
import { Badge, type BadgeTone, Table, TBody, Td, Th, THead, Tr } from '@web/components/ui';
import { DRIFT_EXPLANATION, DRIFT_LABEL, DRIFT_MEANING, driftState, formatBps, formatZ, sortProducts, type DriftState } from './format';

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
              : `${drifting} product${drifting === 1 ? '' : 's'} drift${drifting === 1 ? 's' : ''} beyond what chance explains.`}
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
                  <Td className="text-right tabular-nums">{formatBps(p.realisedRtpBps)}</Td>
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
