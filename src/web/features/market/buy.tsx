import { useState, type ReactNode } from 'react';
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { MarketListing, MarketPurchase } from '@shared/contracts/market';
import { Button, Dialog, Money, Notice, Skeleton } from '@web/components/ui';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { ApiClientError } from '@web/lib/api';
import { balanceQuery } from '@web/lib/balance-query';
import { marketKeys, useBuyListing, type BuyInput } from './api';

const link = 'font-semibold text-white underline underline-offset-4 hover:text-fuchsia-200';

/** The new price a 409 price_changed carries (fields.priceCents), or null. */
export function newPriceOf(err: unknown): number | null {
  if (!(err instanceof ApiClientError) || err.code !== 'price_changed') return null;
  const v = Number(err.fields?.priceCents?.[0]);
  return Number.isInteger(v) && v > 0 ? v : null;
}

/** What a failed purchase means and what to do next, one message per refusal the API gives. */
export function BuyError({ error, listingId }: { error: unknown; listingId: string }) {
  if (!(error instanceof ApiClientError)) {
    return (
      <Notice tone="danger" title="Something went wrong">
        If you were charged, your balance and your vault show it; buying again never charges twice. Try again in a moment.
      </Notice>
    );
  }
  const here = `/market/${listingId}`;
  let title: ReactNode = 'We could not complete the purchase';
  let tone: 'danger' | 'warning' = 'danger';
  let body: ReactNode = `${error.message}${/nothing was (charged|bought)/i.test(error.message) ? '' : error.status >= 400 && error.status < 500 ? ' Nothing was charged.' : ''}`;
  switch (error.code) {
    case 'listing_sold':
      tone = 'warning';
      title = 'This card is no longer for sale';
      body = (
        <>
          {error.message}{' '}
          <Link to="/market" className={link}>
            Find another listing
          </Link>
          .
        </>
      );
      break;
    case 'price_changed': {
      tone = 'warning';
      title = 'The price changed';
      const price = newPriceOf(error);
      body = price ? (
        <>
          The seller changed the price to <Money cents={price} className="font-semibold text-white" />. Nothing was charged. Check the new price, then
          confirm again if you still want it.
        </>
      ) : (
        error.message
      );
      break;
    }
    case 'insufficient_funds':
      title = 'Not enough credit';
      body = (
        <>
          Your balance is below the price. Nothing was charged.{' '}
          <Link to="/profile/billing" className={link}>
            Add funds in billing
          </Link>
          , then come back and buy.
        </>
      );
      break;
    case 'self_dealing':
      title = 'You cannot buy this listing';
      body = (
        <>
          {error.message} Your listings are on{' '}
          <Link to="/profile/market" className={link}>
            your market page
          </Link>
          .
        </>
      );
      break;
    case 'self_excluded':
      title = 'Spending is paused on your account';
      body = (
        <>
          {error.message} Nothing was charged. You can review your limits in{' '}
          <Link to="/profile/privacy-and-security" className={link}>
            privacy and security
          </Link>
          .
        </>
      );
      break;
    case 'email_not_verified':
      title = 'Confirm your email first';
      body = (
        <>
          Before you spend anything we need to know your email address is yours. Open the link we sent you, or{' '}
          <Link to="/confirm-request" className={link}>
            send a new confirmation email
          </Link>
          .
        </>
      );
      break;
    case 'unauthorized':
      title = 'Sign in to buy';
      body = (
        <>
          Your session has ended.{' '}
          <Link to="/sign-in" search={{ redirect: here }} className={link}>
            Sign in
          </Link>{' '}
          and try again; nothing was charged.
        </>
      );
      break;
    case 'network_error':
      title = 'No connection';
      body = 'We could not reach the server. If you were charged, your balance and your vault show it; buying again never charges twice. Check your connection and try again.';
      break;
    default:
      if (error.status === 0 || error.status >= 500) {
        body = `${error.message} If you were charged, your balance and your vault show it; buying again never charges twice.`;
      }
  }
  return (
    <Notice tone={tone} title={title}>
      {body}
    </Notice>
  );
}

/**
 * Buy now: a button that opens a confirmation stating the price and the balance after, and buys
 * at exactly that price and version (the API refuses with price_changed if the seller edited it
 * meanwhile). The Idempotency-Key belongs to this panel's intent (useMoneyAction), so a double
 * click or a retry after a lost answer buys once.
 */
export function BuyNow({ listing, onBought }: { listing: MarketListing; onBought: (r: MarketPurchase) => void }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const buy = useBuyListing();
  const action = useMoneyAction((input: BuyInput, key: string) => buy.mutateAsync({ input, key }));
  const balance = useQuery({ ...balanceQuery, enabled: open, retry: false });
  const busy = action.busy || buy.isPending;
  // After a price change the listing is read again: its new version goes with the next confirm.
  const refreshing = useIsFetching({ queryKey: marketKeys.listing(listing.id) }) > 0;
  const balanceCents = balance.data?.balanceCents;
  const after = balanceCents === undefined ? null : balanceCents - listing.priceCents;

  const confirm = async (event: { detail: number }) => {
    setError(null);
    try {
      const r = await action.run({ id: listing.id, expectedPriceCents: listing.priceCents, expectedVersion: listing.version }, event);
      if (!r) return;
      setOpen(false);
      onBought(r);
    } catch (err) {
      setError(err);
      if (err instanceof ApiClientError) {
        if (err.code === 'price_changed') {
          // The new price and version: the dialog shows them, and the next confirm buys at them.
          const price = newPriceOf(err);
          if (price) qc.setQueryData<MarketListing>(marketKeys.listing(listing.id), (l) => (l ? { ...l, priceCents: price } : l));
          void qc.invalidateQueries({ queryKey: marketKeys.listing(listing.id) });
        } else if (err.code === 'listing_sold') {
          qc.setQueryData<MarketListing>(marketKeys.listing(listing.id), (l) => (l && l.state === 'active' ? { ...l, state: 'sold' } : l));
        } else if (err.code === 'insufficient_funds') {
          void qc.invalidateQueries({ queryKey: balanceQuery.queryKey });
        }
      }
    }
  };

  const ended = error instanceof ApiClientError && error.code === 'listing_sold';
  return (
    <>
      <Button
        size="lg"
        className="w-full sm:w-auto"
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        Buy now for <Money cents={listing.priceCents} />
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!busy) setOpen(o);
        }}
        title={`Buy ${listing.name}?`}
        description="The card moves into your vault at once and the price comes off your balance. A purchase cannot be undone; you can list the card again or sell it back later."
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              {ended ? 'Close' : 'Cancel'}
            </Button>
            {ended ? null : (
              <Button onClick={confirm} loading={busy} loadingText="Buying…" disabled={refreshing || (after !== null && after < 0)}>
                Pay <Money cents={listing.priceCents} />
              </Button>
            )}
          </>
        }
      >
        <div className="space-y-4" aria-live="polite">
          <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-2 text-sm">
            <dt className="text-zinc-300">Price</dt>
            <dd className="text-right text-lg font-bold text-white">
              <Money cents={listing.priceCents} />
            </dd>
            <dt className="text-zinc-300">Your balance now</dt>
            <dd className="text-right tabular-nums text-zinc-100">
              {balance.isPending ? <Skeleton className="ml-auto h-5 w-16" /> : balanceCents !== undefined ? <Money cents={balanceCents} /> : '—'}
            </dd>
            <dt className="font-semibold text-white">Balance after</dt>
            <dd className="text-right font-semibold text-white">
              {balance.isPending ? <Skeleton className="ml-auto h-5 w-16" /> : after !== null ? <Money cents={after} className={after < 0 ? 'text-red-300' : 'text-emerald-300'} /> : '—'}
            </dd>
          </dl>
          <p className="text-xs text-zinc-400">No fee for you: the marketplace fee comes out of the seller&apos;s share.</p>
          {after !== null && after < 0 && !error ? (
            <Notice tone="warning" title="Not enough credit">
              You need <Money cents={-after} /> more.{' '}
              <Link to="/profile/billing" className={link}>
                Add funds in billing
              </Link>
              , then come back and buy.
            </Notice>
          ) : null}
          {balance.isError && !error ? <p className="text-sm text-zinc-300">We could not read your balance; the purchase checks it anyway.</p> : null}
          {error ? <BuyError error={error} listingId={listing.id} /> : null}
        </div>
      </Dialog>
    </>
  );
}
