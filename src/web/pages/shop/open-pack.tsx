import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { History, PackageOpen, Store } from 'lucide-react';
import type { OpenResult, UserPack } from '@shared/contracts/shop';
import { PAGE_HEADS } from '@shared/page-heads';
import { MAX_PURCHASE_QUANTITY } from '@shared/shop-limits';
import { Badge, Button, buttonClasses, EmptyState, Money, Notice, PageHeader, Skeleton } from '@web/components/ui';
import { useMoneyAction } from '@web/hooks/use-money-action';
import {
  classesQuery,
  imageKeyFromUrl,
  inventoryQuery,
  openingIdsFrom,
  openingReplayQuery,
  openingSearch,
  openingsQuery,
  toRevealPacks,
  useOpen,
} from '@web/features/shop/api';
import { replayErrorText, StageShell } from '@web/features/shop/reveal/stage-shell';
import { PurchaseError } from '@web/features/shop/buy-panel';
import { PackArt } from '@web/features/shop/pack-art';
import { preloadRevealAnimation } from '@web/features/shop/reveal/build-up';
import { balanceQuery } from '@web/features/wallet/api';
import { SpendingPaused } from '@web/components/spending-paused';
import { WithCards } from './with-cards';
import { plural, timeAgo } from '@web/lib/format';

// The reveal and the sell-back panel show only after an opening: not part of the page's first
// load. Opening a pack starts loading them with the request (preloadRevealAnimation), as the
// product page does, so the reveal does not wait for them.
const PackOpening = lazy(() => import('@web/features/shop/reveal/pack-opening').then((m) => ({ default: m.PackOpening })));
const loadSellBack = () => import('@web/features/collection/sell-back-panel');
const SellBackPanel = lazy(() => loadSellBack().then((m) => ({ default: m.SellBackPanel })));

interface Group {
  productId: string;
  productName: string;
  imageKey: string | null;
  cardsPerPack: number;
  priceCents: number;
  packs: UserPack[];
}

/**
 * /open-pack — the user's unopened packs; opening one (or all) plays the reveal, and
 * /open-pack?opening=<ids> replays openings (after a refresh, from the vault or from the list of
 * recent openings here).
 */
export default function OpenPackPage() {
  const search = useSearch({ strict: false }) as { opening?: unknown };
  const navigate = useNavigate();
  const openingIds = openingIdsFrom(search);
  const inv = useQuery(inventoryQuery);
  const classes = useQuery(classesQuery);
  const open = useOpen();
  // Opening owned packs charges nothing, but its key is still the intent's: a double-click opens once.
  const action = useMoneyAction(({ packIds }: { packIds: string[]; group: string }, key: string) => open.mutateAsync({ input: { packIds }, key }));
  const busyGroup = action.pending?.group ?? null;
  const busy = action.busy || open.isPending;
  // Opening counts as spending for a self-exclusion (the server refuses it): say so up front.
  const balance = useQuery({ ...balanceQuery, retry: false });
  const pausedUntil = balance.data?.selfExcludedUntil ?? null;
  const paused = pausedUntil !== null;
  const pausedNote = paused ? { 'aria-describedby': 'open-paused' } : {};
  const [opened, setResult] = useState<{ data: OpenResult; packs: UserPack[] } | null>(null);
  const result = opened && openingSearch(opened.data) === openingIds.join(',') ? opened : null;
  const replay = useQuery({ ...openingReplayQuery(openingIds), enabled: openingIds.length > 0 && !result });
  const recent = useQuery({ ...openingsQuery(1, 5), enabled: openingIds.length === 0 });

  const items = useMemo(() => inv.data?.items ?? [], [inv.data]);
  const groups = useMemo(() => {
    const m = new Map<string, Group>();
    for (const p of items) {
      let g = m.get(p.productId);
      if (!g) {
        g = {
          productId: p.productId,
          productName: p.productName,
          imageKey: imageKeyFromUrl(p.productImageUrl),
          cardsPerPack: p.cardsPerPack,
          priceCents: p.priceCents,
          packs: [],
        };
        m.set(p.productId, g);
      }
      g.packs.push(p);
    }
    return [...m.values()];
  }, [items]);
  const openable = items.filter((p) => !p.soldOut);

  const start = (packs: UserPack[], group: string, event?: { detail: number }) => {
    const chosen = packs.filter((p) => !p.soldOut).slice(0, MAX_PURCHASE_QUANTITY);
    if (!chosen.length) return;
    preloadRevealAnimation();
    void loadSellBack();
    // A refusal shows from the mutation's error.
    action.run({ packIds: chosen.map((p) => p.id), group }, event).then(
      (data) => {
        if (!data) return;
        setResult({ data, packs: chosen });
        // The reveal gets a history entry of its own: Back returns here, a refresh replays it.
        void navigate({ to: '/open-pack', search: { opening: openingSearch(data) } });
      },
      () => undefined,
    );
  };

  if (openingIds.length) {
    const data = result?.data ?? replay.data;
    const first = result?.packs[0] ?? items[0];
    const shell = (status: string) => (
      <StageShell
        pack={{
          productId: data?.openings[0]?.productId ?? first?.productId ?? 'packvault',
          productName: data?.openings[0]?.productName ?? first?.productName ?? 'your pack',
          imageKey: first ? imageKeyFromUrl(first.productImageUrl) : null,
          cardCount: data?.openings[0]?.cards.length ?? first?.cardsPerPack ?? 5,
        }}
        count={openingIds.length}
        status={status}
      />
    );
    if (!data) {
      return (
        <WithCards>
          <h1 className="sr-only">Open a pack</h1>
          {replay.isError ? (
            <Notice
              tone="warning"
              title="This opening could not be shown"
              action={
                <Link to="/open-pack" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
                  My packs
                </Link>
              }
            >
              {replayErrorText(replay.error)}
            </Notice>
          ) : (
            shell('Getting your cards…')
          )}
        </WithCards>
      );
    }
    const prices: Record<string, number> = {};
    const images: Record<string, string | null> = {};
    for (const p of result?.packs ?? []) {
      prices[p.productId] = p.priceCents;
      images[p.productId] = imageKeyFromUrl(p.productImageUrl);
    }
    const packs = toRevealPacks(data, { classes: classes.data, prices, images });
    return (
      <WithCards>
        <h1 className="sr-only">Open a pack</h1>
        {/* The stage is drawn at once, while the reveal's code arrives (slow networks: issue 41). */}
        <Suspense fallback={shell('Your cards are in your vault. The reveal is on its way…')}>
          <PackOpening
            key={openingIds.join(',')}
            packs={packs}
            note={result ? undefined : 'A replay of your opening: nothing was opened or charged again.'}
            sellBack={
              <Suspense fallback={null}>
                <SellBackPanel ownedCardIds={data.openings.flatMap((o) => o.cards.map((c) => c.ownedCardId))} />
              </Suspense>
            }
            actions={
              <>
                {items.length ? (
                  <Button
                    onClick={() => {
                      setResult(null);
                      void navigate({ to: '/open-pack', search: {} });
                    }}
                  >
                    <PackageOpen aria-hidden="true" className="size-4" /> Open more ({items.length} left)
                  </Button>
                ) : (
                  <Link to="/shop" className={buttonClasses()}>
                    <Store aria-hidden="true" className="size-4" /> Buy more packs
                  </Link>
                )}
              </>
            }
          />
        </Suspense>
      </WithCards>
    );
  }

  return (
    <WithCards>
      <PageHeader
        title={PAGE_HEADS.openPack.title}
        description={PAGE_HEADS.openPack.description}
        actions={
          openable.length > 1 ? (
            <Button onClick={(e) => start(openable, 'all', e)} loading={busyGroup === 'all'} disabled={busy || paused} {...pausedNote}>
              <PackageOpen aria-hidden="true" className="size-4" />
              {openable.length > MAX_PURCHASE_QUANTITY ? `Open ${MAX_PURCHASE_QUANTITY} at once` : `Open all ${openable.length}`}
            </Button>
          ) : null
        }
      />
      {pausedUntil ? (
        <div className="mb-6">
          <SpendingPaused id="open-paused" until={pausedUntil} what="opening packs" />
        </div>
      ) : null}
      {open.error ? (
        <div className="mb-6">
          <PurchaseError error={open.error} redirect="/open-pack" action="open" />
        </div>
      ) : null}
      {inv.isPending ? (
        <div role="status" aria-label="Loading your packs" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-64 rounded-2xl" />
          ))}
        </div>
      ) : inv.isError ? (
        <Notice
          tone="danger"
          title="Your packs could not be loaded"
          action={
            <Button variant="secondary" size="sm" onClick={() => void inv.refetch()}>
              Try again
            </Button>
          }
        >
          Your packs are safe; check your connection and try again.
        </Notice>
      ) : groups.length === 0 ? (
        <EmptyState
          icon={<PackageOpen />}
          title="No unopened packs"
          description="Packs you buy wait here until you open them. Pick one in the shop; “Buy and open” opens it straight away."
          action={
            <Link to="/shop" className={buttonClasses()}>
              Go to the shop
            </Link>
          }
        />
      ) : (
        // grid-cols-1: a long pack name (one line, cut short) must not widen the column on a phone.
        <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {groups.map((g) => {
            const ready = g.packs.filter((p) => !p.soldOut);
            return (
              <li key={g.productId} className="flex gap-4 rounded-2xl border border-white/10 bg-surface/70 p-4">
                <div className="relative w-28 shrink-0">
                  <PackArt seed={g.productId} name={g.productName} imageKey={g.imageKey} decorative />
                  <Badge tone="violet" className="absolute -top-2 -right-2 bg-violet-600 text-white">
                    ×{g.packs.length}
                  </Badge>
                </div>
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <h2 className="truncate text-lg font-semibold text-white">{g.productName}</h2>
                  <p className="text-sm text-zinc-400">
                    {g.packs.length} unopened · {plural(g.cardsPerPack, 'card')} each · <Money cents={g.priceCents} />
                  </p>
                  {ready.length < g.packs.length ? (
                    <p className="text-sm text-amber-200">
                      This pack is sold out right now, so it cannot be opened fairly. It stays here until stock returns.
                    </p>
                  ) : null}
                  <div className="mt-auto flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      onClick={(e) => start(ready.slice(0, 1), `${g.productId}:1`, e)}
                      loading={busyGroup === `${g.productId}:1`}
                      disabled={!ready.length || busy || paused}
                      aria-label={`Open one ${g.productName}`}
                      {...pausedNote}
                    >
                      Open
                    </Button>
                    {ready.length > 1 ? (
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={(e) => start(ready, `${g.productId}:all`, e)}
                        loading={busyGroup === `${g.productId}:all`}
                        disabled={busy || paused}
                        {...pausedNote}
                        aria-label={`Open all ${Math.min(ready.length, MAX_PURCHASE_QUANTITY)} ${g.productName}`}
                      >
                        Open all {Math.min(ready.length, MAX_PURCHASE_QUANTITY)}
                      </Button>
                    ) : null}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {recent.data?.items.length ? (
        <section aria-labelledby="recent-openings" className="mt-10">
          <h2 id="recent-openings" className="flex items-center gap-2 text-lg font-semibold text-white">
            <History aria-hidden="true" className="size-5 text-zinc-400" /> Recently opened
          </h2>
          <p className="mt-1 text-sm text-zinc-400">Watch any opening again; the cards are already in your vault.</p>
          <ul className="mt-3 divide-y divide-white/10 rounded-2xl border border-white/10 bg-surface/70">
            {recent.data.items.map((o) => (
              <li key={o.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
                <div className="min-w-0">
                  <p className="truncate font-medium text-white">{o.productName}</p>
                  <p className="text-sm text-zinc-400">
                    {plural(o.cards.length, 'card')} · worth <Money cents={o.totalValueCents} /> ·{' '}
                    <time dateTime={o.createdAt}>{timeAgo(o.createdAt)}</time>
                  </p>
                </div>
                <Link
                  to="/open-pack"
                  search={{ opening: o.id }}
                  aria-label={`Replay the opening of ${o.productName}, ${timeAgo(o.createdAt)}`}
                  className={buttonClasses({ variant: 'secondary', size: 'sm' })}
                >
                  Replay
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </WithCards>
  );
}
