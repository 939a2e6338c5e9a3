import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { Wallet } from 'lucide-react';
import { useState } from 'react';
import { formatMoney } from '@shared/money';
import { topUpCents } from '@shared/top-up';
import { Button, cn, Notice } from '@web/components/ui';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { depositOptionsQuery, walletApi, walletKeys } from './api';

export interface TopUpDifferenceProps {
  /** What the purchase still needs, in cents. */
  shortfallCents: number;
  /** A path of this site to come back to after the checkout (the server checks it too). */
  returnPath: string;
  className?: string;
}

/**
 * "Top up the difference": a deposit of the shortfall, raised to the minimum deposit, through the
 * same checkout as the billing page, coming back to `returnPath`. The limits come from the
 * deposit options the billing page reads, so they follow the server's settings.
 */
export function TopUpDifference({ shortfallCents, returnPath, className }: TopUpDifferenceProps) {
  const options = useQuery(depositOptionsQuery);
  const navigate = useNavigate();
  const qc = useQueryClient();
  // Busy from the answer until the checkout page has taken over, too: the deposit is started.
  const [leaving, setLeaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = useMoneyAction((body: { amountCents: number; returnPath: string }, key: string) =>
    walletApi.startDeposit(body.amountCents, key, body.returnPath),
  );
  const busy = start.busy || leaving;

  const o = options.data;
  if (!o) return null;
  const amount = topUpCents(shortfallCents, o);
  if (amount === null) {
    return (
      <p className={cn('text-sm text-zinc-300', className)}>
        One deposit is at most {formatMoney(o.maxCents, o.currency)}: choose fewer packs, or add funds in billing first.
      </p>
    );
  }

  async function go(event: { detail: number }) {
    setError(null);
    try {
      const r = await start.run({ amountCents: amount!, returnPath }, event);
      if (!r) return;
      setLeaving(true);
      void qc.invalidateQueries({ queryKey: walletKeys.all });
      if (r.checkoutUrl.startsWith('/')) await navigate({ to: '/checkout/$id', params: { id: r.deposit.id } });
      else window.location.assign(r.checkoutUrl);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Something went wrong. Try again.');
      setLeaving(false);
    }
  }

  return (
    <div className={className}>
      <Button size="lg" className="w-full" onClick={(e) => void go(e)} loading={busy} loadingText="Starting checkout…">
        <Wallet aria-hidden="true" className="size-5" /> Top up the difference: {formatMoney(amount, o.currency)}
      </Button>
      <p className="mt-1.5 text-xs text-zinc-400">
        {amount > shortfallCents ? `The smallest deposit is ${formatMoney(o.minCents, o.currency)}. ` : ''}
        {o.testMode ? 'Test mode: no card is charged. ' : ''}You come back here to finish the purchase.
      </p>
      {error ? (
        <Notice tone="danger" className="mt-2">
          {error}
        </Notice>
      ) : null}
    </div>
  );
}
