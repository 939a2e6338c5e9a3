import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { BuybackInput, BuybackResult } from '@shared/contracts/collection';
import { formatRate } from '@shared/contracts/owned-cards';
import { Button, Dialog, Money, Notice, SkeletonText, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { quoteQuery, useSellBack } from './api';
import { plural } from '@web/lib/format';

export interface SellBackDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What to sell: explicit cards, everything below an amount, or those of the cards below it. */
  input: BuybackInput;
  onSold?: (result: BuybackResult) => void;
}

const MAX_LINES = 8;

function errorText(err: unknown) {
  if (err instanceof ApiClientError) return err.message;
  return 'Something went wrong. Try again in a moment.';
}

/**
 * Shows the quote (rate × current market value per card, and the total) and sells on confirm.
 * The confirmed total goes with the sale: if prices moved meanwhile the server refuses and we
 * show the new quote instead of paying a different amount than the one shown.
 */
export function SellBackDialog({ open, onOpenChange, input, onSold }: SellBackDialogProps) {
  const quote = useQuery(quoteQuery(input, open));
  const sell = useSellBack();
  const action = useMoneyAction((sale: BuybackInput, key: string) => sell.mutateAsync({ input: sale, key }));
  const q = quote.data;
  const selling = action.busy || sell.isPending;

  const confirm = async (event: { detail: number }) => {
    if (!q) return;
    try {
      const result = await action.run({ ...input, expectedTotalCents: q.totalCents }, event);
      if (!result) return;
      // What was credited, as the server answered it.
      toast.success(
        `Sold ${plural(result.buyback.cardCount, 'card')}`,
        <>
          <Money cents={result.buyback.totalCents} /> was added to your balance.
        </>,
      );
      onOpenChange(false);
      onSold?.(result);
    } catch (err) {
      if (err instanceof ApiClientError && (err.code === 'quote_changed' || err.code === 'not_in_vault' || err.code === 'nothing_to_sell')) {
        void quote.refetch();
      }
      toast.error('Nothing was sold', errorText(err));
    }
  };

  const count = q?.cardCount ?? 0;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!selling) onOpenChange(o);
      }}
      title="Sell back to Packvault"
      description="You get the buyback rate × today's market value for each card, credited to your balance at once. The cards leave your vault for good."
      footer={
        <>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={selling}>
            Keep my cards
          </Button>
          <Button onClick={confirm} loading={selling} loadingText="Selling…" disabled={!q || quote.isFetching}>
            {q ? (
              <>
                Sell {count} for <Money cents={q.totalCents} />
              </>
            ) : (
              'Sell'
            )}
          </Button>
        </>
      }
    >
      {quote.isPending ? (
        <SkeletonText lines={3} label="Getting your quote" />
      ) : quote.isError ? (
        <Notice tone="danger" title="We could not price these cards">
          {errorText(quote.error)}{' '}
          {quote.error instanceof ApiClientError && quote.error.code === 'email_not_verified' ? (
            <Link to="/confirm-request" className="underline">
              Confirm your email
            </Link>
          ) : (
            'Close this and refresh the list.'
          )}
        </Notice>
      ) : q ? (
        <div className="space-y-3" aria-live="polite">
          <ul className="divide-y divide-white/10 rounded-xl border border-white/10 text-sm" aria-label="Cards to sell">
            {q.lines.slice(0, MAX_LINES).map((l) => (
              <li key={l.ownedCardId} className="flex items-center justify-between gap-3 px-3 py-2">
                <span className="min-w-0">
                  <span className="block truncate font-medium text-white">{l.name}</span>
                  <span className="text-xs text-zinc-400">
                    {l.className} · <Money cents={l.marketValueCents} /> × {formatRate(l.rateBp)}
                  </span>
                </span>
                <Money cents={l.amountCents} className="shrink-0 font-semibold text-emerald-300" />
              </li>
            ))}
            {q.lines.length > MAX_LINES ? (
              <li className="px-3 py-2 text-zinc-400">
                and {q.lines.length - MAX_LINES} more (
                <Money cents={q.lines.slice(MAX_LINES).reduce((s, l) => s + l.amountCents, 0)} />)
              </li>
            ) : null}
          </ul>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-zinc-400">Market value</dt>
            <dd className="text-right tabular-nums text-zinc-200">
              <Money cents={q.marketValueCents} />
            </dd>
            <dt className="font-semibold text-white">You receive</dt>
            <dd className="text-right text-lg font-bold text-emerald-300">
              <Money cents={q.totalCents} />
            </dd>
          </dl>
        </div>
      ) : null}
    </Dialog>
  );
}
