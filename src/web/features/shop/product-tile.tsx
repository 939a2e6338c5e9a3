import { formatDateTime } from '@web/lib/format';
import { Link } from '@tanstack/react-router';
import { Star } from 'lucide-react';
import type { ProductSummary } from '@shared/contracts/shop';
import { Badge, cn, Money, Skeleton } from '@web/components/ui';
import { imageKeyFromUrl } from './api';
import { cardsCaption, PackArt } from './pack-art';

/** Availability badges of a product, shared by the tile and the product page. */
export function ProductBadges({ product, className }: { product: ProductSummary; className?: string }) {
  return (
    <div className={cn('flex flex-wrap gap-1.5', className)}>
      {product.featured ? (
        <Badge tone="gold">
          <Star aria-hidden="true" className="size-3 fill-current" /> Featured
        </Badge>
      ) : null}
      {product.upcoming ? (
        <Badge tone="info">Coming {product.releaseAt ? formatDateTime(product.releaseAt) : 'soon'}</Badge>
      ) : product.soldOut ? (
        <Badge tone="danger">Sold out</Badge>
      ) : null}
    </div>
  );
}

/** A pack in the shop grid: the whole tile is one link to its page. */
/** `level`: the tile's heading level under the page's own headings (2 right under the page title). */
export function ProductTile({ product, level = 3 }: { product: ProductSummary; level?: 2 | 3 }) {
  const H = level === 2 ? 'h2' : 'h3';
  const unavailable = product.soldOut || product.upcoming;
  return (
    <Link
      to="/shop/$id"
      params={{ id: product.id }}
      className={cn(
        'group flex h-full flex-col rounded-2xl border border-white/10 bg-surface/70 p-4 transition',
        'hover:-translate-y-0.5 hover:border-violet-400/40 hover:bg-surface hover:shadow-xl hover:shadow-violet-950/40',
        'focus-visible:border-violet-400',
      )}
    >
      <div className="relative mx-auto w-full max-w-56">
        <PackArt
          seed={product.id}
          name={product.name}
          imageKey={product.imageKey ?? imageKeyFromUrl(product.imageUrl)}
          caption={cardsCaption(product.cardsPerPack)}
          decorative
          className={cn('transition duration-300 group-hover:rotate-1 group-hover:scale-[1.02]', unavailable && 'opacity-60 grayscale-[40%]')}
        />
        <ProductBadges product={product} className="absolute -top-2.5 left-1/2 -translate-x-1/2 flex-nowrap" />
      </div>
      <div className="mt-4 flex flex-1 flex-col gap-2">
        <H className="text-lg font-semibold text-white group-hover:text-violet-100">{product.name}</H>
        <dl className="mt-auto grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
          <dt className="text-zinc-400">Price</dt>
          <dd className="text-right font-semibold text-white">
            <Money cents={product.priceCents} />
          </dd>
          <dt className="text-zinc-400">Expected value</dt>
          <dd className="text-right font-semibold text-gold-300">
            <Money cents={product.expectedValueCents} />
          </dd>
          <dt className="text-zinc-400">Range</dt>
          <dd className="text-right text-zinc-300">
            <Money cents={product.floorCents} /> – <Money cents={product.ceilingCents} />
          </dd>
        </dl>
        <p className="sr-only">
          {product.upcoming ? 'Not on sale yet.' : product.soldOut ? 'Sold out.' : 'On sale.'}
        </p>
      </div>
    </Link>
  );
}

export function ProductTileSkeleton() {
  return (
    <div className="rounded-2xl border border-white/10 bg-surface/50 p-4">
      <Skeleton className="mx-auto aspect-[5/7] w-full max-w-56 rounded-xl" />
      <Skeleton className="mt-4 h-5 w-2/3" />
      <Skeleton className="mt-3 h-4 w-full" />
      <Skeleton className="mt-2 h-4 w-full" />
    </div>
  );
}
