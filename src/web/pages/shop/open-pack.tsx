import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PackageOpen, Store } from 'lucide-react';
import type { OpenResult, UserPack } from '@shared/contracts/shop';
import { PAGE_HEADS } from '@shared/page-heads';
import { MAX_PURCHASE_QUANTITY } from '@shared/shop-limits';
import { Badge, Button, buttonClasses, EmptyState, Money, Notice, PageHeader, Skeleton } from '@web/components/ui';
import { newIdempotencyKey } from '@web/lib/api';
import { classesQuery, imageKeyFromUrl, inventoryQuery, toRevealPacks, useOpen } from '@web/features/shop/api';
import { PurchaseError } from '@web/features/shop/buy-panel';
import { PackArt } from '@web/features/shop/pack-art';
import { preloadRevealAnimation } from '@web/features/shop/reveal/build-up';
import { WithCards } from './with-cards';
import { plural } from '@web/lib/format';

// The reveal and the sell-back panel show only after an opening: not part of the page's first
// load. Opening a pack starts loading them with the request (preloadRevealAnimation), as the
// product page does, so the reveal does not wait for them.
const PackOpening = lazy(() => import('@web/features/shop/reveal/pack-opening').then((m) => ({ default: m.PackOpening })));
const SellBackPanel = lazy(() => import('@web/features/collection/sell-back-panel').then((m) => ({ default: m.SellBackPanel })));

interface Group {
  productId: string;
  productName: string;
  imageKey: string | null;
  cardsPerPack: number;
  priceCents: number;
  packs: UserPack[];
}

/** /open-pack — the user's unopened packs; opening one (or all) plays the reveal. */
export default function OpenPackPage() {
  const inv = useQuery(inventoryQuery);
  const classes = useQuery(classesQuery);
  const open = useOpen();
  const [result, setResult] = useState<{ data: OpenResult; packs: UserPack[] } | null>(null);
  const [busyGroup, setBusyGroup] = useState<string | null>(null);

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

  const start = (packs: UserPack[], group: string) => {
    const chosen = packs.filter((p) => !p.soldOut).slice(0, MAX_PURCHASE_QUANTITY);
    if (!chosen.length) return;
    preloadRevealAnimation();
    setBusyGroup(group);
    open.mutate(
      { input: { packIds: chosen.map((p) => p.id) }, key: newIdempotencyKey() },
      { onSuccess: (data) => setResult({ data, packs: chosen }), onSettled: () => setBusyGroup(null) },
    );
  };

  if (result) {
    const prices: Record<string, number> = {};
    const images: Record<string, string | null> = {};
    for (const p of result.packs) {
      prices[p.productId] = p.priceCents;
      images[p.productId] = imageKeyFromUrl(p.productImageUrl);
    }
    const packs = toRevealPacks(result.data, { classes: classes.data, prices, images });
    return (
      <WithCards>
        <h1 className="sr-only">Open a pack</h1>
        <Suspense fallback={<Skeleton className="h-96 w-full" />}>
        <PackOpening
          packs={packs}
          sellBack={
            <Suspense fallback={null}>
              <SellBackPanel ownedCardIds={result.data.openings.flatMap((o) => o.cards.map((c) => c.ownedCardId))} />
            </Suspense>
          }
          actions={
            <>
              {items.length ? (
                <Button onClick={() => setResult(null)}>
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
            <Button onClick={() => start(openable, 'all')} loading={busyGroup === 'all'} disabled={open.isPending}>
              <PackageOpen aria-hidden="true" className="size-4" />
              {openable.length > MAX_PURCHASE_QUANTITY ? `Open ${MAX_PURCHASE_QUANTITY} at once` : `Open all ${openable.length}`}
            </Button>
          ) : null
        }
      />
      {open.error ? (
        <div className="mb-6">
          <PurchaseError error={open.error} redirect="/open-pack" />
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
                      onClick={() => start(ready.slice(0, 1), `${g.productId}:1`)}
                      loading={busyGroup === `${g.productId}:1`}
                      disabled={!ready.length || open.isPending}
                      aria-label={`Open one ${g.productName}`}
                    >
                      Open
                    </Button>
                    {ready.length > 1 ? (
                      <Button
                        size="sm"
                        variant="secondary"
                        onClick={() => start(ready, `${g.productId}:all`)}
                        loading={busyGroup === `${g.productId}:all`}
                        disabled={open.isPending}
                        aria-label={`Open all ${Math.min(ready.length, MAX_PURCHASE_QUANTITY)} ${g.productName}`}
                      >
                        Open {Math.min(ready.length, MAX_PURCHASE_QUANTITY)}
                      </Button>
                    ) : null}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </WithCards>
  );
}
