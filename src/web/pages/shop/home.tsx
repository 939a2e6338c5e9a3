import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PackageOpen, Store, Wallet } from 'lucide-react';
import { lookFromRefs } from '@shared/contracts/catalog-look';
import { buttonClasses, Money, Notice, Panel, Skeleton } from '@web/components/ui';
import { balanceQuery } from '@web/lib/balance-query';
import { useSession, welcomeText } from '@web/features/auth/session';
import { inventoryQuery, openingsQuery, productsQuery } from '@web/features/shop/api';
import { ShopCard } from '@web/features/shop/card-slot';
import { ProductTile, ProductTileSkeleton } from '@web/features/shop/product-tile';
import { useNow } from '@web/features/shop/pulls';
import { timeAgo } from '@web/lib/format';
import { WithCards } from './with-cards';

/** /home — the signed-in front door: balance, unopened packs, featured packs, recent pulls. */
export default function HomePage() {
  const { data: me } = useSession();
  const balance = useQuery({ ...balanceQuery, retry: false });
  const inv = useQuery(inventoryQuery);
  const products = useQuery(productsQuery);
  const openings = useQuery(openingsQuery(1, 5));
  const now = useNow();
  const featured = (products.data?.items ?? []).filter((p) => p.featured).slice(0, 3);
  const shownProducts = featured.length ? featured : (products.data?.items ?? []).slice(0, 3);
  const recent = (openings.data?.items ?? []).flatMap((o) => o.cards.map((c) => ({ ...c, openedAt: o.createdAt, productName: o.productName }))).slice(0, 10);
  const unopened = inv.data?.total ?? inv.data?.items.length ?? 0;

  return (
    <WithCards>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-white wrap-anywhere sm:text-3xl">
        {welcomeText(me, (openings.data?.total ?? 0) > 0)}
      </h1>
      {me && !me.user.emailVerified ? (
        <Notice tone="warning" title="Confirm your email to buy packs" className="mb-6">
          We sent you a link. <Link to="/confirm-request" className="font-semibold underline">Send it again</Link> if it did not arrive.
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex items-center gap-4 rounded-2xl border border-gold-400/25 bg-gold-400/[0.06] p-5">
          <Wallet aria-hidden="true" className="size-8 text-gold-300" />
          <div className="flex-1">
            <p className="text-sm text-zinc-300">Balance</p>
            {balance.isPending ? (
              <Skeleton className="mt-1 h-7 w-24" />
            ) : balance.data ? (
              <div className="text-2xl font-bold text-gold-300">
                <Money cents={balance.data.balanceCents} currency={balance.data.currency} />
              </div>
            ) : (
              <p className="text-sm text-zinc-400">Unavailable right now</p>
            )}
          </div>
          <Link to="/profile/billing" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            Add funds
          </Link>
        </div>
        <div className="flex items-center gap-4 rounded-2xl border border-violet-400/25 bg-violet-500/[0.06] p-5">
          <PackageOpen aria-hidden="true" className="size-8 text-violet-300" />
          <div className="flex-1">
            <p className="text-sm text-zinc-300">Unopened packs</p>
            {inv.isPending ? <Skeleton className="mt-1 h-7 w-10" /> : <div className="text-2xl font-bold text-white">{unopened}</div>}
          </div>
          <Link to={unopened ? '/open-pack' : '/shop'} className={buttonClasses({ size: 'sm' })}>
            {unopened ? 'Open now' : 'Buy a pack'}
          </Link>
        </div>
      </div>

      <section aria-labelledby="home-featured" className="mt-10 space-y-4">
        <div className="flex items-end justify-between gap-3">
          <h2 id="home-featured" className="text-xl font-bold text-white">
            Featured packs
          </h2>
          <Link to="/shop" className="text-sm font-medium text-violet-300 hover:text-fuchsia-300">
            <Store aria-hidden="true" className="mr-1 inline size-4" /> Shop
          </Link>
        </div>
        {products.isPending ? (
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {Array.from({ length: 3 }, (_, i) => (
              <ProductTileSkeleton key={i} />
            ))}
          </div>
        ) : shownProducts.length ? (
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {shownProducts.map((p) => (
              <li key={p.id}>
                <ProductTile product={p} />
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-zinc-400">{products.isError ? 'Packs could not be loaded; try again shortly.' : 'No packs on sale right now.'}</p>
        )}
      </section>

      <Panel id="home-recent" title="Your recent pulls" className="mt-10">
        {openings.isPending ? (
          <Skeleton className="h-40" />
        ) : openings.isError ? (
          <p className="text-sm text-zinc-400">Your pulls could not be loaded right now; they are safe in your vault.</p>
        ) : recent.length === 0 ? (
          <p className="text-sm text-zinc-400">
            Nothing yet. Your cards show up here after you open a pack.{' '}
            <Link to="/shop" className="text-violet-300 underline underline-offset-4">
              Pick a pack
            </Link>
          </p>
        ) : (
          <ul className="flex gap-4 overflow-x-auto pb-2">
            {recent.map((c) => (
              <li key={c.ownedCardId} className="w-32 shrink-0 space-y-1">
                <ShopCard look={lookFromRefs(c, openings.data!.refs)} size="sm" className="w-full" />
                <p className="truncate text-xs text-zinc-400">
                  {c.productName} · <time dateTime={c.openedAt}>{timeAgo(c.openedAt, now)}</time>
                </p>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </WithCards>
  );
}
