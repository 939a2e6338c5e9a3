import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { Button, Notice, PageHeader, SkeletonText } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { adminPackQuery } from '@web/features/shop/admin/admin-api';
import { PackEditor } from '@web/features/shop/admin/pack-editor';

/** /admin/packs/$id — cards per pack, odds per slot, the pool, and live value figures. */
export default function AdminPackPage() {
  const { id } = useParams({ from: '/admin/admin/packs/$id' });
  const q = useQuery(adminPackQuery(id));
  const product = q.data?.products[0];
  return (
    <>
      <Link
        to={product ? '/admin/products/$id' : '/admin/products'}
        params={product ? { id: product.id } : undefined}
        className="mb-4 inline-flex items-center gap-1.5 text-sm text-zinc-400 hover:text-white"
      >
        <ArrowLeft aria-hidden="true" className="size-4" /> {product ? product.name : 'Products'}
      </Link>
      {q.isPending ? (
        <>
          <h1 className="sr-only">Pack</h1>
          <SkeletonText lines={8} label="Loading the pack" />
        </>
      ) : q.isError ? (
        <>
          <PageHeader title="Pack" />
          <Notice tone="danger" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
            {q.error instanceof ApiClientError && q.error.status === 404 ? 'There is no pack with this id.' : 'The pack could not be loaded.'}
          </Notice>
        </>
      ) : (
        <>
          <PageHeader eyebrow="Pack odds" title={q.data.pack.name} description="Changes apply to the next opening once saved. Every change is written to the audit log." />
          <PackEditor key={q.data.pack.updatedAt} detail={q.data} />
        </>
      )}
    </>
  );
}
