import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowRight, ShieldCheck } from 'lucide-react';
import { buttonClasses, Notice } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { imageKeyFromUrl, productsQuery, topPullsQuery } from '@web/features/shop/api';
import { HowItWorks } from '@web/features/shop/how-it-works';
import { cardsCaption, PackArt } from '@web/features/shop/pack-art';
import { ProductTile, ProductTileSkeleton } from '@web/features/shop/product-tile';
import { LiveDot, PullsTicker } from '@web/features/shop/pulls';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { WithCards } from './with-cards';

const TICKER_SIZE = 6;

export function prefetch(queryClient: QueryClient) {
  return Promise.all([queryClient.prefetchQuery(productsQuery), queryClient.prefetchQuery(topPullsQuery('24h', TICKER_SIZE))]);
}

/** / — what the shop is, featured packs, live pulls, how it works and why it is fair. */
export default function LandingPage() {
  const { siteName } = useSiteConfig();
  const { data: me } = useSession();
  const products = useQuery(productsQuery);
  const items = products.data?.items ?? [];
  const featured = (items.some((p) => p.featured) ? items.filter((p) => p.featured) : items).slice(0, 4);
  const fan = items.slice(0, 3);
  return (
    <WithCards>
      <section aria-labelledby="hero-title" className="grid items-center gap-10 pb-6 lg:grid-cols-2 lg:pb-12">
        <div className="space-y-6">
          <p className="text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">{siteName}</p>
          <h1 id="hero-title" className="text-4xl font-black tracking-tight text-balance text-white sm:text-5xl">
            Open packs. <span className="bg-gradient-to-r from-violet-300 to-fuchsia-300 bg-clip-text text-transparent">Own real cards.</span>
          </h1>
          <p className="max-w-xl text-lg leading-relaxed text-zinc-300">
            Buy a pack, open it on screen, and every card you pull is a real, physical card — kept safe in our vault until
            you want it shipped. Every pack shows its odds, and every opening can be checked.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link to="/shop" className={buttonClasses({ size: 'lg' })}>
              Browse packs <ArrowRight aria-hidden="true" className="size-5" />
            </Link>
            {me ? (
              <Link to="/home" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
                Your home
              </Link>
            ) : (
              <Link to="/sign-up" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
                Create an account
              </Link>
            )}
          </div>
        </div>
        <div aria-hidden="true" className="relative mx-auto h-80 w-full max-w-md sm:h-96">
          {(fan.length ? fan : [null, null, null]).map((p, i) => (
            <div
              key={p?.id ?? i}
              className="absolute top-1/2 left-1/2 w-40 sm:w-48"
              style={{ transform: `translate(-50%, -50%) translateX(${(i - 1) * 38}%) rotate(${(i - 1) * 9}deg)`, zIndex: i === 1 ? 2 : 1 }}
            >
              {p ? (
                <PackArt seed={p.id} name={p.name} imageKey={p.imageKey ?? imageKeyFromUrl(p.imageUrl)} caption={cardsCaption(p.cardsPerPack)} decorative />
              ) : (
                <PackArt seed={`hero-${i}`} name={['Starter', 'Classic', 'Premium'][i]!} caption="Packvault" decorative />
              )}
            </div>
          ))}
        </div>
      </section>

      <section aria-labelledby="featured-title" className="mt-8 space-y-5">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="featured-title" className="text-2xl font-bold text-white">
            Featured packs
          </h2>
          <Link to="/shop" className="text-sm font-medium text-violet-300 hover:text-fuchsia-300">
            All packs →
          </Link>
        </div>
        {products.isPending ? (
          <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {Array.from({ length: 4 }, (_, i) => (
              <ProductTileSkeleton key={i} />
            ))}
          </div>
        ) : products.isError ? (
          <Notice tone="warning" title="Packs are not loading right now">
            Try the <Link to="/shop" className="underline">shop</Link> again in a moment.
          </Notice>
        ) : featured.length === 0 ? (
          <p className="text-zinc-400">No packs are on sale right now. New packs are released regularly.</p>
        ) : (
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
            {featured.map((p) => (
              <li key={p.id}>
                <ProductTile product={p} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="live-title" className="mt-14 space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="live-title" className="flex items-center gap-3 text-2xl font-bold text-white">
            Live pulls <LiveDot />
          </h2>
          <Link to="/top-pulls" className="text-sm font-medium text-violet-300 hover:text-fuchsia-300">
            Top pulls →
          </Link>
        </div>
        <PullsTicker limit={TICKER_SIZE} />
      </section>

      <div className="mt-14">
        <HowItWorks />
      </div>

      <section
        aria-labelledby="fair-title"
        className="mt-14 flex flex-col gap-5 rounded-3xl border border-emerald-400/20 bg-emerald-500/[0.05] p-6 sm:flex-row sm:items-center sm:p-8"
      >
        <ShieldCheck aria-hidden="true" className="size-12 shrink-0 text-emerald-300" />
        <div className="flex-1 space-y-2">
          <h2 id="fair-title" className="text-xl font-bold text-white">
            Provably fair, not “trust us”
          </h2>
          <p className="max-w-2xl text-zinc-300">
            Before you open anything you see the hash of your secret server seed. Each card is drawn from HMAC-SHA256 of
            that seed, your own client seed and a counter. Rotate the seed and your browser recomputes every opening.
          </p>
        </div>
        <Link to="/fairness" className={buttonClasses({ variant: 'secondary' })}>
          How it works
        </Link>
      </section>
    </WithCards>
  );
}
