import { lazy, Suspense, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { lookFromRefs } from '@shared/contracts/catalog-look';
import type { OpenResult } from '@shared/contracts/shop';
import { pendingPurchaseQuantity } from '@shared/top-up';
import {
  Button,
  buttonClasses,
  Money,
  Notice,
  Panel,
  Skeleton,
  SkeletonText,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
} from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { useSession } from '@web/features/auth/session';
import { classesQuery, imageKeyFromUrl, openingIdsFrom, openingReplayQuery, openingSearch, productQuery, toRevealPacks } from '@web/features/shop/api';
import { replayErrorText, StageShell } from '@web/features/shop/reveal/stage-shell';
import { BuyPanel } from '@web/features/shop/buy-panel';
import { ShopCard } from '@web/features/shop/card-slot';
import { CardOddsTable, SlotOddsTable } from '@web/features/shop/odds-table';
import { cardsCaption, PackArt } from '@web/features/shop/pack-art';
import { ProductBadges } from '@web/features/shop/product-tile';
import { useNow } from '@web/features/shop/pulls';
import { timeAgo } from '@web/lib/format';
import { ValueRange } from '@web/features/shop/value-range';
import { plural } from '@web/lib/format';
import { TopUpDifference, useWalletLiveUpdates } from '@web/features/wallet';
import { WithCards } from './with-cards';

// The reveal and the sell-back panel show only after a purchase: not part of the product page's
// first load (issue 21). The buy button starts loading them with the purchase request
// (preloadRevealAnimation; the sell-back panel through onOpening), so the reveal does not wait for them.
const PackOpening = lazy(() => import('@web/features/shop/reveal/pack-opening').then((m) => ({ default: m.PackOpening })));
const loadSellBack = () => import('@web/features/collection/sell-back-panel');
const SellBackPanel = lazy(() => loadSellBack().then((m) => ({ default: m.SellBackPanel })));

/** /shop/$id — one pack: art, description, full odds, value range, best recent pulls, buying. */
export default function ProductPage() {
  const { id } = useParams({ from: '/chrome/site/shop/$id' });
  const q = useQuery(productQuery(id));
  const { data: me } = useSession();
  const classes = useQuery(classesQuery);
  const now = useNow();
  const [opened, setOpened] = useState<OpenResult | null>(null);
  // Back from "Top up the difference": ?buy=<quantity>&deposit=<id>&result=success|cancelled.
  // After buying and opening: ?opening=<ids>, so a refresh or Back then Forward replays the reveal.
  const search = useSearch({ strict: false }) as { buy?: unknown; result?: unknown; opening?: unknown };
  const navigate = useNavigate();
  const openingIds = openingIdsFrom(search);
  const fresh = opened && openingSearch(opened) === openingIds.join(',') ? opened : null;
  const replay = useQuery({ ...openingReplayQuery(openingIds), enabled: openingIds.length > 0 && !fresh && Boolean(me) });
  const pendingQuantity = pendingPurchaseQuantity(search);
  const cancelled = search.result === 'cancelled';
  const clearPending = () => void navigate({ to: '/shop/$id', params: { id }, search: {}, replace: true, resetScroll: false });
  // A Stripe deposit is credited by its webhook, maybe after the return: the balance follows live.
  useWalletLiveUpdates();

  const classMap = useMemo(() => {
    const m = new Map<string, { name: string; colour: string }>();
    for (const s of q.data?.slotOdds ?? []) for (const o of s.odds) m.set(o.classId, { name: o.className, colour: o.classColour });
    return m;
  }, [q.data]);

  if (q.isPending) {
    return (
      <div role="status" aria-label="Loading the pack" className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]">
        <Skeleton className="aspect-[5/7] w-full max-w-80 rounded-xl" />
        <div className="space-y-4">
          <Skeleton className="h-9 w-2/3" />
          <SkeletonText lines={4} />
        </div>
      </div>
    );
  }
  if (q.isError) {
    const missing = q.error instanceof ApiClientError && q.error.status === 404;
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-bold text-white">{missing ? 'Pack not found' : 'This pack could not be loaded'}</h1>
        <Notice
          tone={missing ? 'warning' : 'danger'}
          action={
            missing ? (
              <Link to="/shop" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
                Back to the shop
              </Link>
            ) : (
              <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
                Try again
              </Button>
            )
          }
        >
          {missing
            ? 'This pack is not on sale (it may have been retired). Every pack on sale is in the shop.'
            : 'Check your connection and try again.'}
        </Notice>
      </div>
    );
  }

  const { product, slotOdds, cardOdds, bestPulls, refs } = q.data;
  const imageKey = product.imageKey ?? imageKeyFromUrl(product.imageUrl);

  const revealing = fresh ?? (openingIds.length ? replay.data : undefined);
  if (openingIds.length && (revealing || me !== null)) {
    const shell = (status: string) => (
      <StageShell
        pack={{ productId: product.id, productName: product.name, imageKey, cardCount: product.cardsPerPack }}
        count={openingIds.length}
        status={status}
      />
    );
    if (!revealing) {
      return (
        <WithCards>
          <h1 className="sr-only">{product.name}: opening</h1>
          {replay.isError ? (
            <Notice
              tone="warning"
              title="This opening could not be shown"
              action={
                <Link to="/collect" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
                  Go to my vault
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
    const packs = toRevealPacks(revealing, {
      classes: classes.data,
      prices: { [product.id]: fresh?.purchase?.unitPriceCents ?? (fresh ? product.priceCents : 0) },
      images: { [product.id]: imageKey },
    });
    return (
      <WithCards>
        <h1 className="sr-only">{product.name}: opening</h1>
        {fresh?.purchase ? (
          // What was charged, as the server answered it: a replayed click shows the one charge.
          <p role="status" className="mb-4 text-sm text-zinc-300">
            {plural(fresh.purchase.quantity, 'pack')} of {product.name}: you paid <Money cents={fresh.purchase.totalCents} />. Your balance is
            now <Money cents={fresh.balanceCents} />.
          </p>
        ) : null}
        {/* The stage is drawn at once, while the reveal's code arrives (slow networks: issue 41). */}
        <Suspense fallback={shell('Your cards are in your vault. The reveal is on its way…')}>
          <PackOpening
            key={openingIds.join(',')}
            packs={packs}
            autoStart={false}
            note={fresh ? undefined : 'A replay of your opening: nothing was charged again.'}
            sellBack={
              <Suspense fallback={null}>
                <SellBackPanel ownedCardIds={revealing.openings.flatMap((o) => o.cards.map((c) => c.ownedCardId))} />
              </Suspense>
            }
            actions={
              <>
                <Button
                  onClick={() => {
                    setOpened(null);
                    void navigate({ to: '/shop/$id', params: { id }, search: {} });
                  }}
                >
                  Buy more {product.name}
                </Button>
                <Link to="/open-pack" className={buttonClasses({ variant: 'secondary' })}>
                  My unopened packs
                </Link>
              </>
            }
          />
        </Suspense>
      </WithCards>
    );
  }

  return (
    <WithCards>
      <Link to="/shop" className="mb-6 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> All packs
      </Link>
      <div className="grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:gap-12">
        <div className="mx-auto w-full max-w-80 lg:mx-0">
          <PackArt seed={product.id} name={product.name} imageKey={imageKey} caption={cardsCaption(product.cardsPerPack)} large />
        </div>
        <div className="space-y-6">
          <div className="space-y-3">
            <ProductBadges product={product} />
            <h1 className="text-3xl font-bold tracking-tight text-white sm:text-4xl">{product.name}</h1>
            <p className="text-zinc-300">
              {plural(product.cardsPerPack, 'card')} per pack
            </p>
            {product.description ? <p className="max-w-prose leading-relaxed whitespace-pre-line text-zinc-300">{product.description}</p> : null}
          </div>
          <ValueRange
            floorCents={product.floorCents}
            expectedValueCents={product.expectedValueCents}
            ceilingCents={product.ceilingCents}
            priceCents={product.priceCents}
          />
          <div className="rounded-2xl border border-white/10 bg-surface/80 p-5">
            {cancelled && pendingQuantity ? (
              <Notice tone="warning" title="Checkout cancelled" className="mb-4">
                Nothing was charged. You can top up again or choose fewer packs.
              </Notice>
            ) : null}
            <BuyPanel
              product={product}
              signedIn={Boolean(me)}
              onOpened={(r) => {
                setOpened(r);
                // A history entry of its own: Back leaves the reveal, Forward or a refresh replays it.
                void navigate({ to: '/shop/$id', params: { id }, search: { opening: openingSearch(r) }, resetScroll: false });
              }}
              pendingQuantity={cancelled ? null : pendingQuantity}
              onPendingDone={clearPending}
              onOpening={() => void loadSellBack()}
              topUp={(shortfallCents, returnPath) => <TopUpDifference shortfallCents={shortfallCents} returnPath={returnPath} />}
            />
          </div>
          <p className="flex items-start gap-2 text-sm text-zinc-400">
            <ShieldCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-300" />
            <span>
              Every card is drawn from your own provably fair seed, using exactly the odds below.{' '}
              <Link to="/fairness" className="text-violet-300 underline underline-offset-4">
                How to verify
              </Link>
              {' · '}
              <Link to="/fairness/products/$id" params={{ id }} className="text-violet-300 underline underline-offset-4">
                Odds history
              </Link>
              {' · '}
              <Link to="/fairness/returns" className="text-violet-300 underline underline-offset-4">
                Realised returns
              </Link>
            </span>
          </p>
        </div>
      </div>

      <div className="mt-12 grid grid-cols-1 gap-8 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <Panel id="odds" title="Odds" description="Each card slot draws a class by these odds, then a card of that class from the cards in stock.">
          <Tabs defaultValue="slots">
            <TabsList aria-label="Odds view">
              <TabsTrigger value="slots">Per slot</TabsTrigger>
              <TabsTrigger value="cards">Per card ({cardOdds.length})</TabsTrigger>
            </TabsList>
            <TabsContent value="slots">
              <SlotOddsTable slotOdds={slotOdds} />
            </TabsContent>
            <TabsContent value="cards">
              <CardOddsTable cardOdds={cardOdds} classes={classMap} />
            </TabsContent>
          </Tabs>
        </Panel>
        <Panel id="best-pulls" title="Best recent pulls" description="The most valuable cards from this pack in the last 7 days.">
          {bestPulls.length === 0 ? (
            <p className="text-sm text-zinc-400">No pulls from this pack in the last 7 days yet.</p>
          ) : (
            <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 xl:grid-cols-2">
              {bestPulls.map((p) => {
                const look = lookFromRefs(p.card, refs);
                return (
                  <li key={p.ownedCardId} className="space-y-1.5">
                    <ShopCard look={look} size="sm" className="w-full" />
                    <p className="truncate text-xs text-zinc-400">
                      <span className="font-medium text-zinc-200">{p.username}</span> ·{' '}
                      <time dateTime={p.createdAt}>{timeAgo(p.createdAt, now)}</time>
                    </p>
                  </li>
                );
              })}
            </ul>
          )}
        </Panel>
      </div>
    </WithCards>
  );
}
