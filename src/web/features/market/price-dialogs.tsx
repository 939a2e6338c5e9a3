import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { z } from 'zod';
import type { MarketListing } from '@shared/contracts/market';
import { centsToDecimal, parseMoney } from '@shared/money';
import { Button, Dialog, FormField, Input, Money, Notice, Select, SkeletonText, toast } from '@web/components/ui';
import { useDebounced } from '@web/hooks/use-debounced';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { marketQuoteQuery, useCreateListing, useUpdatePrice } from './api';

/** What the seller types: a price in dollars, and (when listing) how long the listing runs. */
const priceText = z
  .string()
  .trim()
  .min(1, 'Enter a price, e.g. 12.50.')
  .refine((s) => parseMoney(s) !== null, 'Enter an amount in dollars with at most two decimals, e.g. 12.50.')
  .refine((s) => (parseMoney(s) ?? 0) > 0, 'The price must be more than zero.');
const sellSchema = z.object({ price: priceText, expiresInDays: z.enum(['', '1', '3', '7', '14', '30', '90']) });
const editSchema = z.object({ price: priceText });
type SellForm = z.infer<typeof sellSchema>;
type EditForm = z.infer<typeof editSchema>;

const EXPIRY_LABEL: Record<SellForm['expiresInDays'], string> = {
  '': 'Until I delist it',
  '1': '1 day',
  '3': '3 days',
  '7': '7 days',
  '14': '14 days',
  '30': '30 days',
  '90': '90 days',
};

/** Cents of a typed price, or null while it is not one. */
const centsOf = (text: string | undefined) => {
  const c = parseMoney(text ?? '');
  return c !== null && c > 0 ? c : null;
};

/**
 * The live quote for a price (POST /api/market/quote): the fee and what the seller receives, or,
 * for a price outside the bounds, the API's own words. `ready` is true when the quote shown is
 * for the price typed, so the form confirms only what the seller has seen.
 */
function useQuote(text: string | undefined) {
  const typed = centsOf(text);
  const cents = useDebounced(typed, 300);
  const q = useQuery(marketQuoteQuery(cents));
  const ready = typed !== null && cents === typed && q.isSuccess && q.data.priceCents === typed;
  return { q, typed, ready };
}

function QuoteView({ typed, q }: ReturnType<typeof useQuote>) {
  if (typed === null) return <p className="text-sm text-zinc-400">Enter a price to see the fee and what you receive.</p>;
  if (q.isError) {
    const msg = q.error instanceof ApiClientError ? (q.error.fields?.priceCents?.[0] ?? q.error.message) : 'We could not get a quote.';
    return (
      <Notice tone="warning" title="This price cannot be used">
        {msg}
      </Notice>
    );
  }
  if (!q.data) return <SkeletonText lines={2} label="Getting the fee for this price" />;
  const d = q.data;
  return (
    <dl className="grid grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1.5 rounded-xl border border-white/10 bg-white/[0.03] p-3 text-sm" aria-live="polite" aria-label="Quote">
      <dt className="text-zinc-300">Buyer pays</dt>
      <dd className="text-right tabular-nums text-zinc-100">
        <Money cents={d.priceCents} />
      </dd>
      <dt className="text-zinc-300">Marketplace fee ({(d.feeBp / 100).toString()}%, at least <Money cents={d.minFeeCents} />)</dt>
      <dd className="text-right tabular-nums text-zinc-100">
        −<Money cents={d.feeCents} />
      </dd>
      <dt className="font-semibold text-white">You receive</dt>
      <dd className="text-right text-lg font-bold text-emerald-300">
        <Money cents={d.sellerReceivesCents} />
      </dd>
    </dl>
  );
}

/**
 * The price a seller has been told is far from the card's comparables (409 price_far_from_comps),
 * with the server's reason: the next submit of that same price confirms it; another price asks again.
 */
function useFarPrice(typed: number | null) {
  const [far, setFar] = useState<{ cents: number; message: string } | null>(null);
  const confirming = far !== null && far.cents === typed;
  const caught = (err: unknown, cents: number) => {
    if (!(err instanceof ApiClientError) || err.code !== 'price_far_from_comps') return false;
    setFar({ cents, message: err.message });
    return true;
  };
  return { confirming, message: confirming ? far.message : null, caught, reset: () => setFar(null) };
}

function FarPriceNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Notice tone="warning" title="Is this the price you mean?">
      {message}
    </Notice>
  );
}

function ActionError({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiClientError && error.code === 'email_not_verified') {
    return (
      <Notice tone="danger" title="Confirm your email first">
        Selling needs a confirmed email address.{' '}
        <Link to="/confirm-request" className="font-semibold text-white underline underline-offset-4">
          Send a new confirmation email
        </Link>
        .
      </Notice>
    );
  }
  const title =
    error instanceof ApiClientError && error.code === 'listed'
      ? 'Already listed'
      : error instanceof ApiClientError && error.code === 'invalid_card_state'
        ? 'This card is not in your vault'
        : error instanceof ApiClientError && error.code === 'listing_closed'
          ? 'This listing has ended'
          : 'Nothing was changed';
  return (
    <Notice tone="danger" title={title}>
      {errorText(error)}
    </Notice>
  );
}

/** "Sell on the market": a price with its live quote, an optional expiry, then the listing. */
export function SellDialog({
  copy,
  open,
  onOpenChange,
  onListed,
}: {
  copy: { id: string; name: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onListed?: (listing: MarketListing) => void;
}) {
  const create = useCreateListing();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<SellForm>({ resolver: zodResolver(sellSchema), defaultValues: { price: '', expiresInDays: '' } });
  const { register, handleSubmit, formState, setError: setFieldError, control } = form;
  const quote = useQuote(useWatch({ control, name: 'price' }));
  const far = useFarPrice(quote.typed);
  const submit = handleSubmit(async (v) => {
    setError(null);
    const priceCents = parseMoney(v.price);
    if (priceCents === null || !quote.ready) return;
    try {
      const listing = await create.mutateAsync({
        ownedCardId: copy.id,
        priceCents,
        ...(v.expiresInDays ? { expiresInDays: Number(v.expiresInDays) } : {}),
        ...(far.confirming ? { confirmFarPrice: true } : {}),
      });
      toast.success(`${copy.name} is on the market`, <>Listed at <Money cents={listing.priceCents} />. You can change the price or delist it any time.</>);
      far.reset();
      onOpenChange(false);
      onListed?.(listing);
    } catch (err) {
      if (far.caught(err, priceCents)) return;
      if (err instanceof ApiClientError && err.fields?.priceCents?.[0]) setFieldError('price', { type: 'server', message: err.fields.priceCents[0] });
      else setError(err);
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!formState.isSubmitting) onOpenChange(o);
      }}
      title={`Sell ${copy.name} on the market`}
      description="Set your price. The card stays in the vault while it is listed (it cannot be shipped or sold back) and moves to the buyer when it sells."
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormField label="Price (dollars)" error={formState.errors.price?.message} required>
          <Input inputMode="decimal" autoComplete="off" placeholder="e.g. 12.50" {...register('price')} />
        </FormField>
        <QuoteView {...quote} />
        <FormField label="Listing ends" hint="The card returns to your vault when the listing ends unsold.">
          <Select {...register('expiresInDays')}>
            {Object.entries(EXPIRY_LABEL).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </Select>
        </FormField>
        <FarPriceNotice message={far.message} />
        <ActionError error={error} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={formState.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting} loadingText="Listing…" disabled={!quote.ready}>
            {quote.ready && quote.q.data ? (
              <>
                {far.confirming ? 'List anyway for' : 'List for'} <Money cents={quote.q.data.priceCents} />
              </>
            ) : (
              'List it'
            )}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** A new price for an active listing, with its quote (the fee follows the listing's own terms, so the quote is a guide). */
export function EditPriceDialog({ listing, open, onOpenChange }: { listing: MarketListing; open: boolean; onOpenChange: (open: boolean) => void }) {
  const update = useUpdatePrice();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<EditForm>({ resolver: zodResolver(editSchema), defaultValues: { price: centsToDecimal(listing.priceCents) } });
  const { register, handleSubmit, formState, setError: setFieldError, control } = form;
  const quote = useQuote(useWatch({ control, name: 'price' }));
  const far = useFarPrice(quote.typed);
  const submit = handleSubmit(async (v) => {
    setError(null);
    const priceCents = parseMoney(v.price);
    if (priceCents === null || !quote.ready) return;
    try {
      const l = await update.mutateAsync({ id: listing.id, priceCents, ...(far.confirming ? { confirmFarPrice: true } : {}) });
      toast.success('Price changed', <>{l.name} is now listed at <Money cents={l.priceCents} />.</>);
      far.reset();
      onOpenChange(false);
    } catch (err) {
      if (far.caught(err, priceCents)) return;
      if (err instanceof ApiClientError && err.fields?.priceCents?.[0]) setFieldError('price', { type: 'server', message: err.fields.priceCents[0] });
      else setError(err);
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!formState.isSubmitting) onOpenChange(o);
      }}
      title={`Change the price of ${listing.name}`}
      description={
        <>
          Listed at <Money cents={listing.priceCents} /> now. A buyer who saw the old price is asked to check the new one before paying.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormField label="New price (dollars)" error={formState.errors.price?.message} required>
          <Input inputMode="decimal" autoComplete="off" {...register('price')} />
        </FormField>
        <QuoteView {...quote} />
        <FarPriceNotice message={far.message} />
        <ActionError error={error} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={formState.isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…" disabled={!quote.ready || quote.typed === listing.priceCents}>
            {quote.ready && quote.q.data ? (
              <>
                {far.confirming ? 'Change anyway to' : 'Change to'} <Money cents={quote.q.data.priceCents} />
              </>
            ) : (
              'Change price'
            )}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
