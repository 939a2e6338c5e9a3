import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Wallet } from 'lucide-react';
import { Money } from '@web/components/ui/money';
import { balanceQuery } from '@web/lib/balance-query';
import { useRealtimeEvent } from '@web/lib/realtime';

/**
 * The signed-in user's credit in the header. Hidden (not an error) when the wallet answers
 * 401/404 or fails: the header must never break because a feature is down. Updated live by
 * the wallet's `balance.changed` event.
 */
export function HeaderBalance({ className }: { className?: string }) {
  const queryClient = useQueryClient();
  const { data } = useQuery({ ...balanceQuery, retry: false });
  useRealtimeEvent<{ balanceCents?: number }>('balance.changed', (payload) => {
    if (typeof payload?.balanceCents === 'number' && Number.isSafeInteger(payload.balanceCents)) {
      queryClient.setQueryData(balanceQuery.queryKey, (old) =>
        old ? { ...old, balanceCents: payload.balanceCents! } : old,
      );
    }
    void queryClient.invalidateQueries({ queryKey: balanceQuery.queryKey });
  });
  if (!data || !Number.isSafeInteger(data.balanceCents)) return null;
  return (
    <Link
      to="/profile/billing"
      className={
        'inline-flex h-9 items-center gap-2 rounded-lg bg-gold-400/10 px-3 text-sm font-semibold text-gold-300 ' +
        'ring-1 ring-gold-400/30 ring-inset hover:bg-gold-400/15 ' +
        (className ?? '')
      }
    >
      <Wallet aria-hidden="true" className="size-4" />
      <span className="sr-only">Balance: </span>
      <Money cents={data.balanceCents} currency={data.currency} />
    </Link>
  );
}
