import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { HandCoins } from 'lucide-react';
import type { MarketOffer, MarketOfferState } from '@shared/contracts/market';
import { parseMoney } from '@shared/money';
import { Badge, Button, Dialog, EmptyState, FormField, Input, Money, Notice, Select, Skeleton, toast, type BadgeTone } from '@web/components/ui';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { ApiClientError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { copiesOfCardQuery, marketQuoteQuery, offersQuery, useAcceptOffer, useCloseOffer, useCounterOffer, type OfferSide } from './api';
import { amountText, OfferError } from './offers';
import { ListingArt, PersonalList } from './parts';

const PAGE_SIZE = 20;

const STATE: Record<MarketOfferState, { label: string; tone: BadgeTone }> = {
  open: { label: 'Open', tone: 'success' },
  countered: { label: 'Countered', tone: 'info' },
  accepted: { label: 'Accepted', tone: 'info' },
  rejected: { label: 'Declined', tone: 'neutral' },
  cancelled: { label: 'Withdrawn', tone: 'neutral' },
  expired: { label: 'Expired', tone: 'warning' },
  lapsed: { label: 'Closed', tone: 'neutral' },
};
const FILTERS: Array<{ value: '' | MarketOfferState; label: string }> = [
  { value: '', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'countered', label: 'Countered' },
  { value: 'rejected', label: 'Declined' },
  { value: 'expired', label: 'Expired' },
];

/**
 * Offers made by the user (`made`: their bids, and counters they sent as a seller) or made to them
 * (`received`: bids on their listings, counters to their bids, open offers on cards they hold).
 * Open ones carry their actions: withdraw; accept, counter or decline.
 */
export function OfferList({ side, userId }: { side: OfferSide; userId: string | null }) {
  const [state, setState] = useState<'' | MarketOfferState>('');
  const [page, setPage] = useState(1);
  const q = useQuery(offersQuery(side, { ...(state ? { state } : {}), page, pageSize: PAGE_SIZE }));
  return (
    <PersonalList
      intro={
        side === 'made'
          ? 'Your offers hold their amount from your balance until they are answered, expire or the card sells elsewhere.'
          : 'Accept an offer and the sale happens at once: the buyer’s money is already held. Counter a bid on your listing, or decline it.'
      }
      filters={FILTERS}
      state={state}
      onStateChange={setState}
      q={q}
      what="offers"
      empty={
        <EmptyState
          icon={<HandCoins />}
          title={state ? `No ${STATE[state].label.toLowerCase()} offers` : side === 'made' ? 'You have not made any offers' : 'No offers yet'}
          description={
            side === 'made'
              ? 'On any listing on the market, “Make an offer” proposes your own price.'
              : 'When a collector offers on one of your listings, it shows here (and in your notifications).'
          }
          action={
            <Link to="/market" className="text-violet-300 underline underline-offset-4">
              Browse the market
            </Link>
          }
        />
      }
      label={side === 'made' ? 'Offers you made' : 'Offers made to you'}
      row={(o) => <OfferRow offer={o} side={side} userId={userId} />}
      page={page}
      onPageChange={setPage}
      pageSize={PAGE_SIZE}
    />
  );
}

/** Who an offer is from and to, in the words of the one reading it. */
function parties(o: MarketOffer, userId: string | null) {
  const buyer = o.buyerId === userId ? 'you' : (o.buyerUsername ?? 'a collector');
  const seller = o.sellerId === userId ? 'you' : (o.sellerUsername ?? (o.listingId ? 'the seller' : 'any holder of this card'));
  return o.madeBy === 'buyer' ? `from ${buyer} to ${seller}` : `counter from ${seller} to ${buyer}`;
}

function OfferRow({ offer: o, side, userId }: { offer: MarketOffer; side: OfferSide; userId: string | null }) {
  const open = o.state === 'open';
  // The one who answers an open offer is the other side from the one who made it.
  const toMe = side === 'received';
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-surface/60 p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <div className="w-14 shrink-0">
          <ListingArt listing={{ imageKey: o.imageKey, name: o.name, classColour: '#52525b' }} />
        </div>
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            {o.listingId && open ? (
              <Link to="/market/$id" params={{ id: o.listingId }} className="truncate font-medium text-white underline-offset-4 hover:underline">
                {o.name}
              </Link>
            ) : (
              <span className="truncate font-medium text-white">{o.name}</span>
            )}
            <Badge tone={STATE[o.state].tone}>{STATE[o.state].label}</Badge>
            {o.listingId ? null : <Badge tone="violet">Any copy</Badge>}
          </p>
          <p className="text-xs text-zinc-400">
            {o.setName} · {parties(o, userId)} · {formatDateTime(o.createdAt)}
            {open ? ` · open until ${formatDateTime(o.expiresAt)}` : o.closedAt ? ` · closed ${formatDateTime(o.closedAt)}` : ''}
          </p>
          <p className="text-sm text-zinc-200">
            Offer <Money cents={o.amountCents} className="font-semibold text-white" />
            {o.listingPriceCents !== null ? (
              <>
                {' '}
                · listed at <Money cents={o.listingPriceCents} />
              </>
            ) : null}
            {o.heldCents > 0 ? (
              <>
                {' '}
                · <Money cents={o.heldCents} /> held{o.buyerId === userId ? ' from your balance' : ''}
              </>
            ) : null}
          </p>
        </div>
      </div>
      {open ? (
        <div className="flex shrink-0 flex-wrap gap-2">
          {toMe ? (
            <>
              <AcceptOffer offer={o} userId={userId} />
              {o.madeBy === 'buyer' && o.listingId ? <CounterOffer offer={o} /> : null}
              {o.listingId || o.madeBy === 'seller' ? <CloseOffer offer={o} action="reject" /> : null}
            </>
          ) : (
            <CloseOffer offer={o} action="cancel" />
          )}
        </div>
      ) : null}
    </li>
  );
}

/** Decline (an offer made to you) or withdraw (your own): the hold goes back to the buyer. */
function CloseOffer({ offer, action }: { offer: MarketOffer; action: 'reject' | 'cancel' }) {
  const close = useCloseOffer();
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState(false);
  const verb = action === 'reject' ? 'Decline' : 'Withdraw';
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`${verb} the offer of ${offer.name}`}>
        {verb}
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!close.isPending) setOpen(o);
        }}
        title={`${verb} this offer?`}
        description={
          <>
            The offer of <Money cents={offer.amountCents} /> for {offer.name} closes, and the held money goes back to{' '}
            {action === 'cancel' && offer.madeBy === 'buyer' ? 'your balance' : 'the buyer'}.
          </>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={close.isPending}>
              Keep it
            </Button>
            <Button
              variant="danger"
              loading={close.isPending}
              onClick={async () => {
                setError(null);
                try {
                  await close.mutateAsync({ offerId: offer.id, action });
                  setOpen(false);
                  toast.success(action === 'reject' ? 'Offer declined' : 'Offer withdrawn', 'The held money is released.');
                } catch (err) {
                  setError(err);
                }
              }}
            >
              {verb}
            </Button>
          </>
        }
      >
        <OfferError error={error} />
      </Dialog>
    </>
  );
}

interface AcceptInput {
  offerId: string;
  ownedCardId?: string;
}

/**
 * Accept: as the seller, the card goes to the buyer for the offered amount (less the fee); as the
 * buyer of a counter, you pay the counter (your hold covers part or all of it). A card offer names
 * which of your vaulted copies to sell. The Idempotency-Key is this dialog's intent.
 */
function AcceptOffer({ offer, userId }: { offer: MarketOffer; userId: string | null }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const accept = useAcceptOffer();
  const action = useMoneyAction((input: AcceptInput, key: string) => accept.mutateAsync({ ...input, key }));
  const selling = offer.buyerId !== userId;
  const cardOffer = offer.listingId === null;
  const quote = useQuery({ ...marketQuoteQuery(offer.amountCents), enabled: open && selling });
  const copies = useQuery({ ...copiesOfCardQuery({ cardId: offer.cardId, name: offer.name }), enabled: open && cardOffer });
  const [copyId, setCopyId] = useState('');
  const chosen = cardOffer ? copyId || copies.data?.[0]?.id || '' : undefined;
  const busy = action.busy || accept.isPending;

  const confirm = async (event: { detail: number }) => {
    setError(null);
    try {
      const r = await action.run({ offerId: offer.id, ...(chosen ? { ownedCardId: chosen } : {}) }, event);
      if (!r) return;
      setOpen(false);
      toast.success(
        selling ? `${offer.name} sold` : `${offer.name} is yours`,
        selling ? (
          <>
            Sold for <Money cents={offer.amountCents} />; what you receive is in your balance.
          </>
        ) : (
          'The card is in your vault.'
        ),
      );
    } catch (err) {
      setError(err);
    }
  };

  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`Accept the offer of ${offer.name}`}>
        Accept
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!busy) setOpen(o);
        }}
        title={selling ? `Sell ${offer.name} for this offer?` : `Buy ${offer.name} at the counter price?`}
        description={
          selling
            ? 'The card moves to the buyer at once and the money to your balance. A sale cannot be undone.'
            : 'The card moves into your vault at once. Your held money pays for it; any difference comes from your balance.'
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={confirm} loading={busy} loadingText={selling ? 'Selling…' : 'Buying…'} disabled={cardOffer && !chosen}>
              {selling ? 'Sell for' : 'Pay'} <Money cents={offer.amountCents} />
            </Button>
          </>
        }
      >
        <div className="space-y-4" aria-live="polite">
          {selling ? (
            quote.data ? (
              <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1.5 text-sm">
                <dt className="text-zinc-300">Buyer pays</dt>
                <dd className="text-right tabular-nums text-zinc-100">
                  <Money cents={quote.data.priceCents} />
                </dd>
                <dt className="text-zinc-300">Marketplace fee</dt>
                <dd className="text-right tabular-nums text-zinc-100">
                  −<Money cents={quote.data.feeCents} />
                </dd>
                <dt className="font-semibold text-white">You receive</dt>
                <dd className="text-right text-lg font-bold text-emerald-300">
                  <Money cents={quote.data.sellerReceivesCents} />
                </dd>
              </dl>
            ) : quote.isError ? null : (
              <Skeleton className="h-16 w-full" />
            )
          ) : (
            <p className="text-sm text-zinc-300">
              Held for this offer: <Money cents={offer.heldCents} />. Counter price: <Money cents={offer.amountCents} className="font-semibold text-white" />.
            </p>
          )}
          {cardOffer ? (
            copies.isPending ? (
              <Skeleton className="h-10 w-full" />
            ) : copies.data?.length ? (
              <FormField label="Which of your copies" hint="A copy on the market, in a shipment or being sold back cannot be sold here.">
                <Select value={chosen} onChange={(e) => setCopyId(e.target.value)}>
                  {copies.data.map((c, i) => (
                    <option key={c.id} value={c.id}>
                      {`Copy ${i + 1}, in your vault since ${formatDateTime(c.acquiredAt)}`}
                    </option>
                  ))}
                </Select>
              </FormField>
            ) : (
              <Notice tone="warning" title="No copy to sell">
                You have no copy of {offer.name} in your vault that could go to the buyer.
              </Notice>
            )
          ) : null}
          <OfferError error={error} />
        </div>
      </Dialog>
    </>
  );
}

const counterSchema = z.object({ amount: amountText });

/** Counter a bid on your listing: a new amount above the bid and at most your price, sent to the buyer. */
function CounterOffer({ offer }: { offer: MarketOffer }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const counter = useCounterOffer();
  const form = useForm<{ amount: string }>({ resolver: zodResolver(counterSchema), defaultValues: { amount: '' } });
  const { register, handleSubmit, formState, setError: setFieldError } = form;
  const submit = handleSubmit(async (v) => {
    setError(null);
    const amountCents = parseMoney(v.amount);
    if (amountCents === null) return;
    if (amountCents <= offer.amountCents) return setFieldError('amount', { type: 'min', message: 'A counter is above the buyer’s offer.' });
    if (offer.listingPriceCents !== null && amountCents > offer.listingPriceCents) {
      return setFieldError('amount', { type: 'max', message: 'A counter is at most your listing’s price.' });
    }
    try {
      await counter.mutateAsync({ offerId: offer.id, amountCents });
      setOpen(false);
      toast.success('Counter-offer sent', <>The buyer can accept <Money cents={amountCents} /> or decline it.</>);
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.amountCents?.[0]) setFieldError('amount', { type: 'server', message: err.fields.amountCents[0] });
      else setError(err);
    }
  });
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)} aria-label={`Counter the offer of ${offer.name}`}>
        Counter
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!formState.isSubmitting) setOpen(o);
        }}
        title={`Counter the offer on ${offer.name}`}
        description={
          <>
            The buyer offered <Money cents={offer.amountCents} />
            {offer.listingPriceCents !== null ? (
              <>
                {' '}
                on your price of <Money cents={offer.listingPriceCents} />
              </>
            ) : null}
            . Name your amount: they can accept it or decline.
          </>
        }
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <FormField label="Your counter (dollars)" error={formState.errors.amount?.message} required>
            <Input inputMode="decimal" autoComplete="off" {...register('amount')} />
          </FormField>
          <OfferError error={error} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={formState.isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" loading={formState.isSubmitting} loadingText="Sending…">
              Send counter
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
