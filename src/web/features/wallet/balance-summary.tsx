import { useQuery } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import { Card, Money, Notice, Skeleton, Button } from '@web/components/ui';
import { balanceQuery } from './api';

/** The big balance at the top of /profile/billing; updated live through useWalletLiveUpdates. */
export function BalanceSummary() {
  const q = useQuery(balanceQuery);
  if (q.isError) {
    return (
      <Notice tone="danger" title="We could not load your balance" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
        {q.error.message}
      </Notice>
    );
  }
  return (
    <Card className="flex items-center gap-4 bg-gradient-to-br from-violet-950/60 via-surface/80 to-fuchsia-950/40">
      <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-violet-500/20 text-violet-200 ring-1 ring-violet-400/30">
        <Wallet aria-hidden="true" className="size-6" />
      </span>
      <div>
        <p className="text-sm text-zinc-400">
          Your balance
        </p>
        {q.data ? (
          <div className="text-3xl font-bold tracking-tight text-white tabular-nums" aria-live="polite">
            <Money cents={q.data.balanceCents} currency={q.data.currency} />
          </div>
        ) : (
          <Skeleton className="mt-1 h-9 w-32" />
        )}
      </div>
    </Card>
  );
}
