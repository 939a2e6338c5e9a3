import { useQuery, type QueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PackageSearch } from 'lucide-react';
import { Button, EmptyState, Notice, PageHeader } from '@web/components/ui';
import { productsQuery } from '@web/features/shop/api';
import { ProductTile, ProductTileSkeleton } from '@web/features/shop/product-tile';
import { plural } from '@web/lib/format';

export function prefetch(queryClient: QueryClient) {
  return queryClient.prefetchQuery(productsQuery);
}

/** /shop — every live pack, featured first, with price, expected value and availability. */
export default function ShopPage() {
  const q = useQuery(productsQuery);
  const items = q.data?.items ?? [];
  const onSale = items.filter((p) => !p.soldOut && !p.upcoming).length;
  return (
    <>
      <PageHeader
        eyebrow="Shop"
        title="Packs"
        description={
          <>
            Every pack shows its full odds and value range before you buy. The odds shown are the odds used, and you can{' '}
            <Link to="/fairness" className="text-violet-300 underline underline-offset-4 hover:text-fuchsia-300">
              verify every opening
            </Link>
            .
          </>
        }
      />
      {q.isPending ? (
        <div role="status" aria-label="Loading packs" className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {Array.from({ length: 4 }, (_, i) => (
            <ProductTileSkeleton key={i} />
          ))}
        </div>
      ) : q.isError ? (
        <Notice
          tone="danger"
          title="The shop could not be loaded"
          action={
            <Button variant="secondary" size="sm" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again. Nothing was bought.
        </Notice>
      ) : items.length === 0 ? (
        <EmptyState
          icon={<PackageSearch />}
          title="No packs on sale right now"
          description="New packs are released regularly. Have a look at the top pulls in the meantime."
          action={
            <Link to="/top-pulls" className="text-violet-300 underline underline-offset-4">
              See the top pulls
            </Link>
          }
        />
      ) : (
        <>
          <p className="mb-4 text-sm text-zinc-400" aria-live="polite">
            {plural(items.length, 'pack')}, {onSale} on sale now.
          </p>
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
            {items.map((p) => (
              <li key={p.id}>
                {/* The grid sits right under the page title: no section heading between. */}
                <ProductTile product={p} level={2} />
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
