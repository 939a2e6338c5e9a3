import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useState } from 'react';
import { Plus } from 'lucide-react';
import { formatRate } from '@shared/contracts/owned-cards';
import type { CreateShipmentInput, CreateShipmentResult, Quote } from '@shared/contracts/shipping';
import { Button, Checkbox, Dialog, Money, Notice, SkeletonText, buttonClasses, cn, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { AddressDialog } from './addresses-panel';
import { addressesQuery, optionsQuery, quoteQuery, useCreateShipment } from './api';
import { AddressBlock, errorText } from './parts';
import { plural } from '@web/lib/format';

export interface ShipDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The vault cards to ship (owned card ids). */
  ownedCardIds: string[];
  /** Their names, to say which card a refusal is about. */
  cardNames?: ReadonlyMap<string, string>;
  onShipped?: (result: CreateShipmentResult) => void;
  /** Takes cards out of the shipment (ones the server refused); without it the user picks again. */
  onDropCards?: (ids: string[]) => void;
}

/** The owned card ids a card_unavailable refusal names. */
function unavailableIds(err: unknown): string[] {
  if (!(err instanceof ApiClientError) || err.code !== 'card_unavailable') return [];
  return (err.fields?.ownedCardIds ?? []).map((l) => l.split(': ')[0]!).filter(Boolean);
}

/** "<ownedCardId>: <why>" lines of a card_unavailable refusal, as readable sentences. */
function unavailableLines(err: ApiClientError, names: ReadonlyMap<string, string> | undefined): string[] {
  const raw = err.fields?.ownedCardIds ?? [];
  return raw.map((line) => {
    const i = line.indexOf(': ');
    if (i < 0) return line;
    const id = line.slice(0, i);
    const why = line.slice(i + 2);
    const name = names?.get(id);
    if (why === 'not in your vault') return `${name ?? 'A card'} is not in your vault any more.`;
    // The server names the card itself ("<name> is in shipment"); keep its words.
    return `${why.charAt(0).toUpperCase()}${why.slice(1)}.`;
  });
}

function RefusalNotice({
  error,
  names,
  onRetry,
  onDrop,
  total,
}: {
  error: unknown;
  names?: ReadonlyMap<string, string>;
  onRetry?: () => void;
  /** Drops the refused cards from the shipment (when some others are left). */
  onDrop?: (ids: string[]) => void;
  total?: number;
}) {
  if (error instanceof ApiClientError && error.code === 'insufficient_funds') {
    return (
      <Notice tone="warning" title="Your balance does not cover the fee">
        Nothing was charged. Add credit, then come back and confirm.{' '}
        <Link to="/profile/billing" className="font-medium underline underline-offset-4">
          Make a deposit
        </Link>
      </Notice>
    );
  }
  if (error instanceof ApiClientError && error.code === 'card_unavailable') {
    const lines = unavailableLines(error, names);
    return (
      <Notice tone="danger" title="Some cards cannot be shipped">
        {lines.length ? (
          <ul className="list-disc space-y-0.5 pl-5">
            {lines.map((l, i) => (
              <li key={i}>{l}</li>
            ))}
          </ul>
        ) : null}
        {(() => {
          const ids = unavailableIds(error);
          const left = (total ?? 0) - ids.length;
          return onDrop && ids.length > 0 && left > 0 ? (
            <>
              <p className="mt-1">Nothing was charged. Ship the others without them, or close this and pick again.</p>
              <Button size="sm" variant="secondary" className="mt-2" onClick={() => onDrop(ids)}>
                Ship the other {plural(left, 'card')}
              </Button>
            </>
          ) : (
            <p className="mt-1">{error.message} Close this and pick other cards.</p>
          );
        })()}
      </Notice>
    );
  }
  if (error instanceof ApiClientError && error.code === 'email_not_verified') {
    return (
      <Notice tone="warning" title="Confirm your email first">
        Shipping spends credit, which needs a confirmed email.{' '}
        <Link to="/confirm-request" className="underline">
          Confirm your email
        </Link>
      </Notice>
    );
  }
  const fields = error instanceof ApiClientError && error.fields ? Object.values(error.fields).flat() : [];
  return (
    <Notice
      tone="danger"
      title="Nothing was charged"
      action={
        onRetry ? (
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    >
      {errorText(error)}
      {fields.length ? (
        <ul className="mt-1 list-disc pl-5">
          {fields.map((f, i) => (
            <li key={i}>{f}</li>
          ))}
        </ul>
      ) : null}
    </Notice>
  );
}

/**
 * Shipping vault cards: pick an address (or add one), choose insurance, see the fee and the
 * balance after it, confirm. The quoted fee goes with the request: if it moved meanwhile the
 * server refuses (quote_changed) and the new quote shows instead of charging another amount.
 */
export function ShipDialog({ open, onOpenChange, ownedCardIds, cardNames, onShipped, onDropCards }: ShipDialogProps) {
  const addresses = useQuery({ ...addressesQuery, enabled: open });
  const options = useQuery({ ...optionsQuery, enabled: open });
  const [addressId, setAddressId] = useState<string | null>(null);
  const [insured, setInsured] = useState(false);
  const [adding, setAdding] = useState(false);
  const create = useCreateShipment();
  const action = useMoneyAction((input: CreateShipmentInput, key: string) => create.mutateAsync({ input, key }));
  const requesting = action.busy || create.isPending;
  const groupId = useId();

  const items = addresses.data?.items ?? [];
  const shipsTo = new Set(options.data?.countries ?? []);
  // The default (or first) address that we ship to, until the user picks one.
  useEffect(() => {
    const list = addresses.data?.items ?? [];
    if (addressId && list.some((a) => a.id === addressId)) return;
    const usable = list.filter((a) => options.data?.countries.includes(a.country));
    const pick = usable.find((a) => a.isDefault) ?? usable[0];
    if (pick) setAddressId(pick.id);
  }, [addressId, addresses.data, options.data]);

  const quote = useQuery(quoteQuery({ ownedCardIds, insured, ...(addressId ? { addressId } : {}) }, open && ownedCardIds.length > 0));
  const q: Quote | undefined = quote.data;
  const count = ownedCardIds.length;

  const confirm = async (event: { detail: number }) => {
    if (!q || !addressId) return;
    try {
      const r = await action.run({ ownedCardIds, addressId, insured, expectedFeeCents: q.feeCents }, event);
      if (!r) return;
      // What was charged, as the server answered it.
      toast.success(
        `Shipment ${r.shipment.reference} requested`,
        <>
          <Money cents={r.shipment.feeCents} /> was charged. Follow it on your shipping page.
        </>,
      );
      onOpenChange(false);
      onShipped?.(r);
    } catch (err) {
      if (err instanceof ApiClientError && err.code === 'quote_changed') {
        void quote.refetch();
        toast.info('The fee changed', 'Check the new fee and confirm again.');
      }
    }
  };

  const short = q ? q.shortfallCents > 0 : false;
  const drop = onDropCards
    ? (ids: string[]) => {
        create.reset();
        onDropCards(ids);
      }
    : undefined;
  return (
    <>
      <Dialog
        open={open && !adding}
        onOpenChange={(o) => {
          if (!requesting) onOpenChange(o);
        }}
        title={`Ship ${plural(count, 'card')} to you`}
        description="The fee is charged from your balance now. You can cancel for a full refund until we start packing."
        className="max-w-xl"
        footer={
          <>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={requesting}>
              Not now
            </Button>
            <Button onClick={confirm} loading={requesting} loadingText="Requesting…" disabled={!q || !addressId || short || quote.isFetching || quote.isError}>
              {q && addressId ? (
                <>
                  Pay <Money cents={q.feeCents} /> and ship
                </>
              ) : (
                'Ship'
              )}
            </Button>
          </>
        }
      >
        <div className="space-y-5">
          <fieldset>
            <legend className="text-sm font-semibold text-white">Ship to</legend>
            {addresses.isError ? (
              <RefusalNotice error={addresses.error} onRetry={() => void addresses.refetch()} />
            ) : !addresses.data || !options.data ? (
              <SkeletonText lines={2} label="Loading your addresses" className="mt-2" />
            ) : items.length === 0 ? (
              <p className="mt-2 text-sm text-zinc-300">You have no address yet. Add one to ship to.</p>
            ) : (
              <div className="mt-2 grid gap-2">
                {items.map((a) => {
                  const allowed = shipsTo.has(a.country);
                  return (
                    <label
                      key={a.id}
                      className={cn(
                        'flex cursor-pointer items-start gap-3 rounded-xl border border-white/10 p-3 has-[:checked]:border-violet-400/70 has-[:checked]:bg-violet-500/10',
                        !allowed && 'cursor-not-allowed opacity-60',
                      )}
                    >
                      <input
                        type="radio"
                        name={`${groupId}-address`}
                        value={a.id}
                        checked={addressId === a.id}
                        disabled={!allowed}
                        onChange={() => setAddressId(a.id)}
                        className="mt-1 size-4 accent-violet-500"
                      />
                      <span className="min-w-0 flex-1">
                        <AddressBlock address={a} withPhone={false} />
                        {a.isDefault ? <span className="text-xs text-violet-300">Default</span> : null}
                        {!allowed ? <span className="block text-xs text-amber-300">We do not ship to this country at the moment.</span> : null}
                      </span>
                    </label>
                  );
                })}
              </div>
            )}
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" className="size-4" />
              Add an address
            </Button>
          </fieldset>

          <div className="flex items-start gap-3">
            <Checkbox id={`${groupId}-insured`} checked={insured} onChange={(e) => setInsured(e.target.checked)} aria-describedby={`${groupId}-insured-hint`} />
            <div>
              <label htmlFor={`${groupId}-insured`} className="text-sm font-medium text-zinc-100">
                Insure this shipment
              </label>
              <p id={`${groupId}-insured-hint`} className="text-sm text-zinc-400">
                {options.data ? (
                  <>
                    {formatRate(options.data.insuranceRateBp)} of the cards' value, at least <Money cents={options.data.insuranceMinCents} />. If
                    the parcel is lost, you get the declared value back as well as the fee.
                  </>
                ) : (
                  'Priced on the cards’ declared value.'
                )}
              </p>
            </div>
          </div>

          <section aria-label="Fee" aria-live="polite" aria-busy={quote.isFetching || undefined}>
            {quote.isError ? (
              <RefusalNotice error={quote.error} names={cardNames} onRetry={() => void quote.refetch()} onDrop={drop} total={count} />
            ) : !q ? (
              <SkeletonText lines={3} label="Getting your quote" />
            ) : (
              <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-xl border border-white/10 p-3 text-sm">
                <dt className="text-zinc-400">Base fee</dt>
                <dd className="text-right">
                  <Money cents={q.baseFeeCents} />
                </dd>
                <dt className="text-zinc-400">
                  {plural(q.cardCount, 'card')} × <Money cents={q.perCardFeeCents} />
                </dt>
                <dd className="text-right">
                  <Money cents={q.cardsFeeCents} />
                </dd>
                <dt className="text-zinc-400">
                  Insurance (declared value <Money cents={q.declaredValueCents} />)
                </dt>
                <dd className="text-right">{q.insured ? <Money cents={q.insuranceCents} /> : 'None'}</dd>
                <dt className="font-semibold text-white">Fee</dt>
                <dd className="text-right text-lg font-bold text-white">
                  <Money cents={q.feeCents} />
                </dd>
                <dt className="text-zinc-400">Your balance</dt>
                <dd className="text-right">
                  <Money cents={q.balanceCents} />
                </dd>
                {!short ? (
                  <>
                    <dt className="text-zinc-400">After shipping</dt>
                    <dd className="text-right">
                      <Money cents={q.balanceCents - q.feeCents} />
                    </dd>
                  </>
                ) : null}
              </dl>
            )}
            {q && short ? (
              <Notice tone="warning" title="Your balance does not cover the fee" className="mt-3">
                You need <Money cents={q.shortfallCents} /> more.{' '}
                <Link to="/profile/billing" className={buttonClasses({ size: 'sm', variant: 'secondary', className: 'ml-1' })}>
                  Make a deposit
                </Link>
              </Notice>
            ) : null}
          </section>

          {create.isError && !quote.isError ? <RefusalNotice error={create.error} names={cardNames} onDrop={drop} total={count} /> : null}
        </div>
      </Dialog>
      {adding ? (
        <AddressDialog
          open
          existing={null}
          onOpenChange={(o) => !o && setAdding(false)}
          onSaved={(a) => {
            setAddressId(a.id);
            setAdding(false);
          }}
        />
      ) : null}
    </>
  );
}
