import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { Button, Notice, PageHeader, SkeletonText } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { adminProductQuery } from '@web/features/shop/admin/admin-api';
import { ProductForm } from '@web/features/shop/admin/product-form';

/** /admin/products/$id — edit one product. */
export default function AdminProductPage() {
  const { id } = useParams({ from: '/admin/admin/products/$id' });
  const q = useQuery(adminProductQuery(id));
  return (
    <>
      <Link to="/admin/products" className="mb-4 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white">
        <ArrowLeft aria-hidden="true" className="size-4" /> Products
      </Link>
      {q.isPending ? (
        <>
          <h1 className="sr-only">Product</h1>
          <SkeletonText lines={6} label="Loading the product" />
        </>
      ) : q.isError ? (
        <>
          <PageHeader title="Product" />
          <Notice tone="danger" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
            {q.error instanceof ApiClientError && q.error.status === 404 ? 'There is no product with this id.' : 'The product could not be loaded.'}
          </Notice>
        </>
      ) : (
        <>
          <PageHeader eyebrow="Product" title={q.data.product.name} description={q.data.product.soldOut ? q.data.product.soldOutReasons.map((r) => r.message).join(' ') : undefined} />
          <ProductForm key={q.data.product.updatedAt} product={q.data.product} />
        </>
      )}
    </>
  );
}
