import { useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeftRight, Repeat } from 'lucide-react';
import { OFFER_EXPIRY_HOURS, SWAP_MAX_COPIES, type BinderItem, type MarketSwap, type MarketSwapState } from '@shared/contracts/market';
import { parseMoney } from '@shared/money';
import { Badge, Button, Checkbox, Dialog, EmptyState, FormField, Input, Money, Notice, Select, Skeleton, toast, type BadgeTone } from '@web/components/ui';
import { useDebounced } from '@web/hooks/use-debounced';
import { useMoneyAction } from '@web/hooks/use-money-action';
import { ApiClientError } from '@web/lib/api';
import { errorText } from '@web/lib/api-errors';
import { formatDateTime } from '@web/lib/format';
import {
  binderCopyQuery,
  cardTradersQuery,
  swappableCopiesQuery,
  swapsQuery,
  useAcceptSwap,
  useBinderToggle,
  useCloseSwap,
  useProposeSwap,
  type OfferSide,
  type ProposeSwapInput,
} from './api';
import { OfferError } from './offers';
import { ListingArt, PersonalList } from './parts';

/**
 * Trade binders and swaps (issue 43 item 4, ADR 0032): open a vault card to trade, find collectors
 * trading a card (its dialog on /cards), propose a swap with cash either way, and answer swaps on
 * /profile/market.
 */

const link = 'font-semibold text-white underline underline-offset-4 hover:text-fuchsia-200';
const EXPIRY: Record<string, string> = { '24': '1 day', [String(OFFER_EXPIRY_HOURS.default)]: '3 days', '168': '7 days', [String(OFFER_EXPIRY_HOURS.max)]: '14 days' };

/** What a refused swap action means and what to do next; the offer codes read the same. */
function SwapError({ error }: { error: unknown }) {
  if (error instanceof ApiClientError && (error.code === 'swap_stale' || error.code === 'swap_closed' || error.code === 'not_found')) {
    const title = error.code === 'swap_stale' ? 'A card in this swap has moved' : error.code === 'swap_closed' ? 'This swap is no longer open' : 'A card is no longer available';
    return (
      <Notice tone="warning" title={title}>
        {error.message}
      </Notice>
    );
  }
  return <OfferError error={error} />;
}

// ───────────────────────── the vault: open a card to trade ─────────────────────────

/** "Open to trade" for a vault copy (the vault's card dialog composes it): other collectors can then propose swaps for it. */
export function TradeBinderToggle({ copy }: { copy: { id: string; name: string } }) {
  const binder = useQuery(binderCopyQuery(copy.id));
  const toggle = useBinderToggle();
  if (binder.isPending) return <Skeleton className="h-10 w-40" />;
  const inBinder = Boolean(binder.data?.items.some((i) => i.ownedCardId === copy.id));
  const flip = async () => {
    try {
      await toggle.mutateAsync({ ownedCardId: copy.id, open: !inBinder });
      toast.success(
        inBinder ? 'Taken out of your trade binder' : 'Open to trade',
        inBinder ? `Collectors can no longer propose swaps for ${copy.name}.` : `Collectors can now propose swaps for ${copy.name}. You choose whether to accept.`,
      );
    } catch (err) {
      toast.error('Nothing was changed', errorText(err));
    }
  };
  return (
    <Button variant="secondary" onClick={flip} loading={toggle.isPending} aria-pressed={inBinder}>
      <Repeat aria-hidden="true" className="size-4" />
      {inBinder ? 'In your trade binder' : 'Open to trade'}
    </Button>
  );
}

// ───────────────────────── a card's dialog: who trades it ─────────────────────────

/** Collectors with this card open to trade, each with "Propose a swap" (the card dialog on /cards, signed in). */
export function CardTraders({ card }: { card: { id: string; name: string } }) {
  const q = useQuery(cardTradersQuery(card.id));
  const [want, setWant] = useState<BinderItem | null>(null);
  return (
    <section aria-labelledby={`traders-${card.id}`} className="mt-3 space-y-2">
      <h3 id={`traders-${card.id}`} className="text-sm font-semibold text-white">
        Open to trade
      </h3>
      {q.isPending ? (
        <Skeleton className="h-9 w-full" />
      ) : q.isError ? (
        <p className="text-sm text-zinc-300">Could not load who trades this card. {errorText(q.error)}</p>
      ) : q.data.items.length === 0 ? (
        <p className="text-sm text-zinc-300">No collector has {card.name} open to trade right now.</p>
      ) : (
        <ul className="space-y-2" aria-label={`Collectors trading ${card.name}`}>
          {q.data.items.map((i) => (
            <li key={i.ownedCardId} className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-white/10 px-3 py-2 text-sm">
              <span className="text-zinc-200">
                {i.ownerUsername ? `@${i.ownerUsername}` : 'A collector'} · value <Money cents={i.valueCents} />
              </span>
              <Button size="sm" variant="secondary" onClick={() => setWant(i)} aria-label={`Propose a swap to ${i.ownerUsername ?? 'this collector'} for ${i.name}`}>
                <ArrowLeftRight aria-hidden="true" className="size-4" /> Propose a swap
              </Button>
            </li>
          ))}
        </ul>
      )}
      {want ? <ProposeSwapDialog want={want} onClose={() => setWant(null)} /> : null}
    </section>
  );
}

/**
 * A swap proposal for one copy in another collector's binder: the user's own vault cards to give,
 * and cash either way (what they add is held from their balance at once). The Idempotency-Key is
 * the dialog's intent: a double click proposes (and holds) once.
 */
function ProposeSwapDialog({ want, onClose }: { want: BinderItem; onClose: () => void }) {
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim(), 250);
  const copies = useQuery(swappableCopiesQuery(q));
  const [give, setGive] = useState<string[]>([]);
  const [cashDir, setCashDir] = useState<'none' | 'add' | 'ask'>('none');
  const [cash, setCash] = useState('');
  const [expires, setExpires] = useState(String(OFFER_EXPIRY_HOURS.default));
  const [fieldError, setFieldError] = useState<{ give?: string; cash?: string }>({});
  const [error, setError] = useState<unknown>(null);
  const propose = useProposeSwap();
  const action = useMoneyAction((input: ProposeSwapInput, key: string) => propose.mutateAsync({ input, key }));
  const busy = action.busy || propose.isPending;
  const who = want.ownerUsername ? `@${want.ownerUsername}` : 'this collector';

  const pick = (id: string, on: boolean) => setGive((g) => (on ? [...g, id] : g.filter((x) => x !== id)));

  const submit = async (event: { detail: number; preventDefault(): void }) => {
    event.preventDefault();
    setError(null);
    const errors: typeof fieldError = {};
    if (give.length === 0) errors.give = 'Pick at least one of your cards to give.';
    if (give.length > SWAP_MAX_COPIES) errors.give = `At most ${SWAP_MAX_COPIES} cards.`;
    let cashCents = 0;
    if (cashDir !== 'none') {
      const c = parseMoney(cash);
      if (c === null || c <= 0) errors.cash = 'Enter an amount in dollars, e.g. 5.00.';
      else cashCents = cashDir === 'add' ? c : -c;
    }
    setFieldError(errors);
    if (errors.give || errors.cash) return;
    try {
      const s = await action.run({ give, want: [want.ownedCardId], cashCents, expiresInHours: Number(expires) }, event);
      if (!s) return;
      onClose();
      toast.success(
        'Swap proposed',
        <>
          {who} can accept it until {formatDateTime(s.expiresAt)}. Follow it on{' '}
          <Link to="/profile/market" search={{ tab: 'swaps-made' }} className={link}>
            your market page
          </Link>
          .
        </>,
      );
    } catch (err) {
      if (err instanceof ApiClientError && err.fields?.cashCents?.[0]) setFieldError({ cash: err.fields.cashCents[0] });
      else setError(err);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => {
        if (!o && !busy) onClose();
      }}
      className="max-w-2xl"
      title={`Propose a swap for ${want.name}`}
      description={`Pick cards from your vault to give ${who}. If they accept, the cards change hands at once, inside the vault; until then nothing moves but any cash you add, which is held from your balance.`}
    >
      <form onSubmit={(e) => e.preventDefault()} noValidate className="space-y-4">
        <FormField label="Find a card in your vault" hint="Only cards in your vault and not listed can be swapped.">
          <Input type="search" value={search} onChange={(e) => setSearch(e.target.value)} autoComplete="off" placeholder="Card name" />
        </FormField>
        <fieldset aria-describedby={fieldError.give ? 'swap-give-error' : undefined}>
          <legend className="text-sm font-medium text-zinc-100">Your cards to give ({give.length} picked)</legend>
          {copies.isPending ? (
            <Skeleton className="mt-2 h-24 w-full" />
          ) : copies.isError ? (
            <p className="mt-2 text-sm text-zinc-300">Could not load your vault. {errorText(copies.error)}</p>
          ) : copies.data.items.length === 0 ? (
            <p className="mt-2 text-sm text-zinc-300">{q ? 'No card in your vault matches.' : 'Your vault has no card to give.'}</p>
          ) : (
            <ul className="mt-2 max-h-60 space-y-1 overflow-y-auto pr-1">
              {copies.data.items.map((c) => (
                <li key={c.id}>
                  <label className="flex cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 text-sm hover:bg-white/5">
                    <Checkbox checked={give.includes(c.id)} onChange={(e) => pick(c.id, e.currentTarget.checked)} />
                    <span className="flex-1 text-zinc-100">
                      {c.card.name} <span className="text-zinc-400">· {c.card.setName}</span>
                    </span>
                    <Money cents={c.valueCents} className="text-zinc-300" />
                  </label>
                </li>
              ))}
            </ul>
          )}
          {fieldError.give ? (
            <p id="swap-give-error" className="mt-1 text-sm text-red-300" role="alert">
              {fieldError.give}
            </p>
          ) : null}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Cash">
            <Select value={cashDir} onChange={(e) => setCashDir(e.target.value as typeof cashDir)}>
              <option value="none">No cash</option>
              <option value="add">I add cash</option>
              <option value="ask">I ask for cash</option>
            </Select>
          </FormField>
          {cashDir !== 'none' ? (
            <FormField
              label={cashDir === 'add' ? 'Cash you add (dollars)' : 'Cash you ask for (dollars)'}
              hint={cashDir === 'add' ? 'Held from your balance now; paid if they accept.' : 'They pay it when they accept; the market fee comes off it.'}
              error={fieldError.cash}
              required
            >
              <Input inputMode="decimal" autoComplete="off" placeholder="e.g. 5.00" value={cash} onChange={(e) => setCash(e.target.value)} />
            </FormField>
          ) : null}
          <FormField label="Open for" hint="Unanswered by then, it expires and any held cash comes back.">
            <Select value={expires} onChange={(e) => setExpires(e.target.value)}>
              {Object.entries(EXPIRY).map(([v, label]) => (
                <option key={v} value={v}>
                  {label}
                </option>
              ))}
            </Select>
          </FormField>
        </div>
        <p className="text-sm text-zinc-300">
          You ask for: <span className="font-semibold text-white">{want.name}</span> (value <Money cents={want.valueCents} />)
        </p>
        <SwapError error={error} />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" onClick={submit} loading={busy} loadingText="Proposing…">
            Propose the swap
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

// ───────────────────────── /profile/market: swaps made and received ─────────────────────────

const PAGE_SIZE = 20;
const STATE: Record<MarketSwapState, { label: string; tone: BadgeTone }> = {
  open: { label: 'Open', tone: 'success' },
  accepted: { label: 'Accepted', tone: 'info' },
  declined: { label: 'Declined', tone: 'neutral' },
  cancelled: { label: 'Withdrawn', tone: 'neutral' },
  expired: { label: 'Expired', tone: 'warning' },
  stale: { label: 'Closed: a card moved', tone: 'neutral' },
};
const FILTERS: Array<{ value: '' | MarketSwapState; label: string }> = [
  { value: '', label: 'All' },
  { value: 'open', label: 'Open' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'declined', label: 'Declined' },
  { value: 'expired', label: 'Expired' },
];

/** Swaps the user proposed (`made`) or that were proposed to them (`received`), open ones with their actions. */
export function SwapList({ side, userId }: { side: OfferSide; userId: string | null }) {
  const [state, setState] = useState<'' | MarketSwapState>('');
  const [page, setPage] = useState(1);
  const q = useQuery(swapsQuery(side, { ...(state ? { state } : {}), page, pageSize: PAGE_SIZE }));
  return (
    <PersonalList
      intro={
        side === 'made'
          ? 'Swaps you proposed. Cash you added is held from your balance until the swap is answered or expires.'
          : 'Swaps proposed for cards in your trade binder. Accept one and the cards (and any cash) change hands at once.'
      }
      filters={FILTERS}
      state={state}
      onStateChange={setState}
      q={q}
      what="swaps"
      empty={
        <EmptyState
          icon={<ArrowLeftRight />}
          title={state ? `No ${STATE[state].label.toLowerCase()} swaps` : side === 'made' ? 'You have not proposed any swaps' : 'No swaps proposed to you yet'}
          description={
            side === 'made'
              ? 'Open a card on the cards page: collectors trading it are listed there, each with “Propose a swap”.'
              : 'Open a card in your vault and choose “Open to trade”: collectors can then propose swaps for it.'
          }
          action={
            <Link to={side === 'made' ? '/cards' : '/collect'} className="text-violet-300 underline underline-offset-4">
              {side === 'made' ? 'Browse the cards' : 'Go to your vault'}
            </Link>
          }
        />
      }
      label={side === 'made' ? 'Swaps you proposed' : 'Swaps proposed to you'}
      row={(s) => <SwapRow swap={s} userId={userId} />}
      page={page}
      onPageChange={setPage}
      pageSize={PAGE_SIZE}
    />
  );
}

/** The cash of a swap in the words of the one reading it. */
function cashText(s: MarketSwap, userId: string | null): ReactNode {
  if (s.cashCents === 0) return 'no cash';
  const iPay = (s.cashCents > 0) === (s.proposerId === userId);
  return (
    <>
      {iPay ? 'you add' : 'you receive'} <Money cents={Math.abs(s.cashCents)} className="font-semibold text-white" />
    </>
  );
}

function SwapRow({ swap: s, userId }: { swap: MarketSwap; userId: string | null }) {
  const mineProposed = s.proposerId === userId;
  const other = mineProposed ? s.recipientUsername : s.proposerUsername;
  const give = s.items.filter((i) => (i.from === 'proposer') === mineProposed);
  const get = s.items.filter((i) => (i.from === 'proposer') !== mineProposed);
  const open = s.state === 'open';
  const names = (xs: typeof s.items) => xs.map((i) => i.name).join(', ');
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-surface/60 p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <div className="flex w-24 shrink-0 items-center gap-1">
          <ListingArt listing={{ imageKey: get[0]?.imageKey ?? '', name: get[0]?.name ?? 'Card', classColour: '#52525b' }} />
          <ArrowLeftRight aria-hidden="true" className="size-4 shrink-0 text-zinc-400" />
          <ListingArt listing={{ imageKey: give[0]?.imageKey ?? '', name: give[0]?.name ?? 'Card', classColour: '#52525b' }} />
        </div>
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-medium text-white">{mineProposed ? `To ${other ? `@${other}` : 'a collector'}` : `From ${other ? `@${other}` : 'a collector'}`}</span>
            <Badge tone={STATE[s.state].tone}>{STATE[s.state].label}</Badge>
          </p>
          <p className="text-sm text-zinc-200">
            You get: {names(get)} · you give: {names(give)} · {cashText(s, userId)}
            {s.heldCents > 0 && mineProposed ? (
              <>
                {' '}
                (<Money cents={s.heldCents} /> held)
              </>
            ) : null}
          </p>
          <p className="text-xs text-zinc-400">
            {formatDateTime(s.createdAt)}
            {open ? ` · open until ${formatDateTime(s.expiresAt)}` : s.closedAt ? ` · closed ${formatDateTime(s.closedAt)}` : ''}
          </p>
        </div>
      </div>
      {open ? (
        <div className="flex shrink-0 flex-wrap gap-2">
          {mineProposed ? (
            <CloseSwap swap={s} action="cancel" />
          ) : (
            <>
              <AcceptSwap swap={s} userId={userId} getNames={names(get)} giveNames={names(give)} />
              <CloseSwap swap={s} action="decline" />
            </>
          )}
        </div>
      ) : null}
    </li>
  );
}

function AcceptSwap({ swap: s, userId, getNames, giveNames }: { swap: MarketSwap; userId: string | null; getNames: string; giveNames: string }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const accept = useAcceptSwap();
  const action = useMoneyAction((swapId: string, key: string) => accept.mutateAsync({ swapId, key }));
  const busy = action.busy || accept.isPending;
  const confirm = async (event: { detail: number }) => {
    setError(null);
    try {
      const r = await action.run(s.id, event);
      if (!r) return;
      setOpen(false);
      toast.success('Swapped', `${getNames} ${s.items.filter((i) => i.from === 'proposer').length === 1 ? 'is' : 'are'} in your vault.`);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <Button size="sm" onClick={() => setOpen(true)} aria-label={`Accept the swap from ${s.proposerUsername ?? 'a collector'}`}>
        Accept
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          if (!busy) setOpen(o);
        }}
        title="Accept this swap?"
        description={
          <>
            You give {giveNames} and get {getNames}; {cashText(s, userId)}. The cards change hands at once, inside the vault. A swap cannot be undone.
          </>
        }
        footer={
          <>
            <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
              Cancel
            </Button>
            <Button onClick={confirm} loading={busy} loadingText="Swapping…">
              Swap
            </Button>
          </>
        }
      >
        <SwapError error={error} />
      </Dialog>
    </>
  );
}

/** Decline (a swap proposed to you) or withdraw (your own): any held cash goes back to the proposer. */
function CloseSwap({ swap: s, action }: { swap: MarketSwap; action: 'decline' | 'cancel' }) {
  const close = useCloseSwap();
  const [error, setError] = useState<unknown>(null);
  const verb = action === 'decline' ? 'Decline' : 'Withdraw';
  return (
    <>
      <Button
        size="sm"
        variant="secondary"
        loading={close.isPending}
        aria-label={`${verb} the swap ${action === 'decline' ? `from ${s.proposerUsername ?? 'a collector'}` : `to ${s.recipientUsername ?? 'a collector'}`}`}
        onClick={async () => {
          setError(null);
          try {
            await close.mutateAsync({ swapId: s.id, action });
            toast.success(action === 'decline' ? 'Swap declined' : 'Swap withdrawn', s.heldCents > 0 ? 'The held cash is back with the proposer.' : 'Nothing moved.');
          } catch (err) {
            setError(err);
            toast.error('Nothing was changed', errorText(err));
          }
        }}
      >
        {verb}
      </Button>
      {error ? <span className="sr-only">{errorText(error)}</span> : null}
    </>
  );
}
