import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Star } from 'lucide-react';
import {
  Badge,
  Button,
  EmptyState,
  FormField,
  Input,
  Money,
  Notice,
  PageHeader,
  Pagination,
  Select,
  Skeleton,
  Table,
  TBody,
  Td,
  Th,
  THead,
  Tr,
} from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { adminProductsQuery, type AdminProductListParams } from '@web/features/shop/admin/admin-api';
import { CreateProduct } from '@web/features/shop/admin/create-product';
import { HouseEdge } from '@web/features/shop/admin/house-edge';
import { plural } from '@web/lib/format';

const STATUS_TONE = { live: 'success', draft: 'neutral', archived: 'warning' } as const;

/** /admin/products — every product, searchable and filterable, with its pack's value figures. */
export default function AdminProductsPage() {
  const [params, setParams] = useState<AdminProductListParams>({ status: 'all', sort: 'order', page: 1, pageSize: 25, q: '' });
  const q = useQuery(adminProductsQuery(params));
  const set = (p: Partial<AdminProductListParams>) => setParams((old) => ({ ...old, page: 1, ...p }));
  return (
    <>
      <PageHeader eyebrow="Shop" title="Products" description="What the shop sells. Each product sells one pack; open a product to edit it and its odds." actions={<CreateProduct />} />
      <div className="mb-4 grid gap-3 sm:grid-cols-[1fr_10rem_12rem]">
        <FormField label="Search">
          <Input type="search" value={params.q} onChange={(e) => set({ q: e.target.value })} placeholder="Name" />
        </FormField>
        <FormField label="Status">
          <Select value={params.status} onChange={(e) => set({ status: e.target.value as AdminProductListParams['status'] })}>
            <option value="all">All</option>
            <option value="live">Live</option>
            <option value="draft">Draft</option>
            <option value="archived">Archived</option>
          </Select>
        </FormField>
        <FormField label="Sort">
          <Select value={params.sort} onChange={(e) => set({ sort: e.target.value as AdminProductListParams['sort'] })}>
            <option value="order">Shop order</option>
            <option value="name">Name</option>
            <option value="price_asc">Price, low to high</option>
            <option value="price_desc">Price, high to low</option>
            <option value="newest">Newest</option>
          </Select>
        </FormField>
      </div>
      {q.isPending ? (
        <Skeleton className="h-64" />
      ) : q.isError ? (
        <Notice tone="danger" action={<Button size="sm" variant="secondary" onClick={() => void q.refetch()}>Try again</Button>}>
          The products could not be loaded. {q.error instanceof ApiClientError ? q.error.message : ''}
        </Notice>
      ) : q.data.items.length === 0 ? (
        <EmptyState title="No products match" description="Change the filters, or create the first product." />
      ) : (
        <>
          <Table caption={plural(q.data.total, 'product')}>
            <THead>
              <Tr>
                <Th>Name</Th>
                <Th>Status</Th>
                <Th className="text-right">Price</Th>
                <Th className="text-right">Cards</Th>
                <Th className="text-right">Expected value</Th>
                <Th className="text-right">House edge</Th>
                <Th>Stock</Th>
                <Th className="text-right">Order</Th>
              </Tr>
            </THead>
            <TBody>
              {q.data.items.map((p) => (
                <Tr key={p.id}>
                  <Td>
                    <Link to="/admin/products/$id" params={{ id: p.id }} className="font-medium text-white underline-offset-4 hover:underline">
                      {p.name}
                    </Link>
                    {p.featured ? <Star aria-label="Featured" className="ml-1.5 inline size-3.5 fill-gold-400 text-gold-400" /> : null}
                  </Td>
                  <Td>
                    <Badge tone={STATUS_TONE[p.status]}>{p.status}</Badge>
                    {p.upcoming ? <Badge tone="info" className="ml-1">upcoming</Badge> : null}
                  </Td>
                  <Td className="text-right"><Money cents={p.priceCents} /></Td>
                  <Td className="text-right tabular-nums">{p.cardsPerPack}</Td>
                  <Td className="text-right"><Money cents={p.expectedValueCents} /></Td>
                  <Td className="text-right">
                    <HouseEdge bp={p.houseEdgeBp} />
                  </Td>
                  <Td>{p.soldOut ? <Badge tone="danger">sold out</Badge> : <Badge tone="success">ok</Badge>}</Td>
                  <Td className="text-right tabular-nums">{p.sortOrder}</Td>
                </Tr>
              ))}
            </TBody>
          </Table>
          <Pagination className="mt-4" page={q.data.page} pageCount={Math.ceil(q.data.total / q.data.pageSize)} onPageChange={(page) => setParams((o) => ({ ...o, page }))} />
        </>
      )}
    </>
  );
}
