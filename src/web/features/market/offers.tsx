import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import { HandCoins } from 'lucide-react';
import { OFFER_EXPIRY_HOURS, type MarketListing, type MarketOffer } from '@shared/contracts/market';
import { parseMoney } from '@shared/money';
import { Button, Dialog, FormField, Input, Money, Notice, Select, Skeleton, toast } from '@web/components/ui';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { balanceQuery } from '@web/lib/balance-query';
import { useMakeOffer, type MakeOfferInput, type OfferTarget } from './api';

const link = 'font-semibold text-white underline underline-offset-4 hover:text-fuchsia-200';

/** An amount typed in dollars: what an offer or a counter says. */
export const amountText = z
  .string()
  .trim()
  .min(1, 'Enter an amount, e.g. 12.50.')
  .refine((s) => parseMoney(s) !== null, 'Enter an amount in dollars with at most two decimals, e.g. 12.50.')
  .refine((s) => (parseMoney(s) ?? 0) > 0, 'The amount must be more than zero.');

const EXPIRY: Record<string, string> = { '24': '1 day', [String(OFFER_EXPIRY_HOURS.default)]: '3 days', '168': '7 days', [String(OFFER_EXPIRY_HOURS.max)]: '14 days' };

/** What a refused offer action means and what to do next (one message per code the API gives). */
export function OfferError({ error }: { error: unknown }) {
  if (!error) return null;
  if (!(error instanceof ApiClientError)) {
    return (
      <Notice tone="danger" title="Something went wrong">
        Your balance and your offers show what happened; sending the same offer again never holds twice. Try again in a moment.
      </Notice>
    );
  }
  let title: ReactNode = 'Nothing was changed';
  let body: ReactNode = errorText(error);
  switch (error.code) {
    case 'insufficient_funds':
      title = 'Not enough free credit';
      body = (
        <>
          {error.message} Money held for your other open offers cannot be offered twice.{' '}
          <Link to="/profile/billing" className={link}>
            Add funds in billing
          </Link>{' '}
          or withdraw an offer on{' '}
          <Link to="/profile/market" className={link}>
            your market page
          </Link>
          .
        </>
      );
      break;
    case 'offer_exists':
      title = 'You already have an open offer here';
      body = (
        <>
          {error.message} Withdraw it on{' '}
          <Link to="/profile/market" className={link}>
            your market page
          </Link>{' '}
          to make another.
        </>
      );
      break;
    case 'offer_closed':
      title = 'This offer is no longer open';
      break;
    case 'listing_sold':
      title = 'This card is no longer for sale';
      break;
    case 'self_dealing':
      title = 'Not with yourself';
      break;
    case 'self_excluded':
      title = 'Spending is paused on your account';
      break;
    case 'email_not_verified':
      title = 'Confirm your email first';
      body = (
        <>
          Offers hold money, so we need to know your email address is yours.{' '}
          <Link to="/confirm-request" className={link}>
            Send a new confirmation email
          </Link>
          .
        </>
      );
      break;
    case 'rate_limited':
      title = 'Too many offers at once';
      break;
  }
  return (
    <Notice tone={error.status === 409 ? 'warning' : 'danger'} title={title}>
      {body}
    </Notice>
  );
}

const offerSchema = z.object({ amount: amountText, expiresInHours: z.enum(Object.keys(EXPIRY) as [string, ...string[]]) });
type OfferForm = z.infer<typeof offerSchema>;

/**
 * "Make an offer" on a listing: an amount up to the price, held from the buyer's free balance at
 * once and released if the seller declines, it expires or the card sells elsewhere. The
 * Idempotency-Key is the dialog's intent (useMoneyAction): a double click or a retry holds once.
 */
export function MakeOffer({ listing }: { listing: MarketListing }) {
  return <OfferButton target={{ listingId: listing.id }} name={listing.name} priceCents={listing.priceCents} />;
}

/**
 * "Make an offer" on a card (the card dialog on /cards): any collector holding a copy in their
 * vault, unlisted, may accept it; the amount is held the same way.
 */
export function MakeCardOffer({ card }: { card: { id: string; name: string } }) {
  return <OfferButton target={{ cardId: card.id }} name={card.name} priceCents={null} />;
}

function OfferButton({ target, name, priceCents }: { target: OfferTarget; name: string; priceCents: number | null }) {
  const onCard = target.cardId !== undefined;
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [made, setMade] = useState<MarketOffer | null>(null);
  const make = useMakeOffer();
  const action = useMoneyAction((input: MakeOfferInput, key: string) => make.mutateAsync({ input, key }));
  const balance = useQuery({ ...balanceQuery, enabled: open, retry: false });
  const form = useForm<OfferForm>({
    resolver: zodResolver(offerSchema),
    defaultValues: { amount: '', expiresInHours: String(OFFER_EXPIRY_HOURS.default) },
  });
  const { register, handleSubmit, formState, setError: setFieldError } = form;
  const busy = action.busy || make.isPending;
  const free = balance.data?.balanceCents;

  const submit = handleSubmit(async (v) => {
    setError(null);
    const amountCents = parseMoney(v.amount);
    if (amountCents === null) return;
    if (priceCents !== null && amountCents > priceCents) {
      setFieldError('amount', { type: 'max', message: 'An offer is at most the price: at the price, buy it now instead.' });
      return;
    }
    try {
      const offer = await action.run({ ...target, amountCents, expiresInHours: Number(v.expiresInHours) } as MakeOfferInput);
      if (!offer) return;
      setMade(offer);
      setOpen(false);
      toast.success(
        'Offer sent',
        <>
          You offered <Money cents={offer.amountCents} /> for {name}; that amount is held until {onCard ? 'a collector accepts it' : 'the seller answers'}.
        </>,
      );
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.amountCents?.[0]) setFieldError('amount', { type: 'server', message: err.fields.amountCents[0] });
      else setError(err);
    }
  });

  return (
    <>
      <Button
        variant="secondary"
        size={onCard ? 'sm' : 'lg'}
        className={onCard ? undefined : 'w-full sm:w-auto'}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
      >
        <HandCoins aria-hidden="true" className="size-4" /> {onCard ? 'Make an offer on this card' : 'Make an offer'}
      </Button>
      {made ? (
        <p className="mt-3 text-sm text-zinc-300" role="status">
          Your offer of <Money cents={made.amountCents} className="font-semibold text-white" /> is {onCard ? 'open to every holder of this card' : 'with the seller'}. Follow it on{' '}
          <Link to="/profile/market" search={{ tab: 'offers-made' }} className={link}>
            your market page
          </Link>
          .
        </p>
      ) : null}
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!busy) setOpen(o);
        }}
        title={`Make an offer on ${name}`}
        description={
          priceCents !== null ? (
            <>
              Listed at <Money cents={priceCents} />. Your offer is held from your balance now and comes back if the seller declines, it expires or the card
              sells to someone else. If the seller accepts, the card is yours at once.
            </>
          ) : (
            'Every collector holding this card in their vault (and not selling it) can accept your offer. It is held from your balance now and comes back if it expires or you withdraw it. The first holder to accept sells you their copy at once.'
          )
        }
      >
        <form onSubmit={submit} noValidate className="space-y-4">
          <FormField label="Your offer (dollars)" error={formState.errors.amount?.message} required>
            <Input inputMode="decimal" autoComplete="off" placeholder="e.g. 12.50" {...register('amount')} />
          </FormField>
          <FormField label="Offer open for" hint="Unanswered by then, it expires and the money is released.">
            <Select {...register('expiresInHours')}>
              {Object.entries(EXPIRY).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </FormField>
          <div className="text-sm text-zinc-300">
            Free to offer now:{' '}
            {balance.isPending ? (
              <Skeleton className="inline-block h-4 w-14 align-middle" />
            ) : free !== undefined ? (
              <Money cents={free} className="font-semibold text-white" />
            ) : (
              'unknown (the offer checks it anyway)'
            )}
            {balance.data?.heldCents ? (
              <>
                {' '}
                (<Money cents={balance.data.heldCents} /> is held for your other offers)
              </>
            ) : null}
          </div>
          <OfferError error={error} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" onClick={action.guardClick} loading={busy} loadingText="Sending…">
              Send offer
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
