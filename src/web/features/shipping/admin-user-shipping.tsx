import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Badge, EmptyState, Money, Panel, SkeletonText, TBody, THead, Table, Td, Th, Tr } from '@web/components/ui';
import { adminUserShippingQuery } from './api';
import { AddressBlock, LoadError, StatusBadge, formatDate } from './parts';
import { plural } from '@web/lib/format';

/** /admin/users/{id}/shipping: a user's addresses (archived ones too) and shipments. */
export function AdminUserShipping({ userId }: { userId: string }) {
  const q = useQuery(adminUserShippingQuery(userId));
  if (q.isError) return <LoadError what="this user's shipping" error={q.error} retry={() => void q.refetch()} />;
  if (!q.data) return <SkeletonText lines={8} label="Loading the user's shipping" />;
  const { addresses, shipments } = q.data;
  return (
    <div className="space-y-6">
      <Panel title="Shipments" description="Newest first.">
        <div>
          {shipments.length === 0 ? (
            <EmptyState title="No shipments" description="This user has not asked for a shipment yet." />
          ) : (
            <Table caption={`Shipments (${shipments.length})`} captionHidden>
              <THead>
                <Tr>
                  <Th>Shipment</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Cards</Th>
                  <Th>Ship to</Th>
                  <Th className="text-right">Fee</Th>
                  <Th className="text-right">Refunded</Th>
                  <Th>Requested</Th>
                </Tr>
              </THead>
              <TBody>
                {shipments.map((s) => (
                  <Tr key={s.id}>
                    <Td>
                      <Link to="/admin/shipping/$id" params={{ id: s.id }} className="font-medium text-violet-300 underline underline-offset-4">
                        {s.reference}
                      </Link>
                    </Td>
                    <Td>
                      <StatusBadge status={s.status} />
                    </Td>
                    <Td className="text-right tabular-nums">{s.cardCount}</Td>
                    <Td className="max-w-48 truncate">{s.shipTo}</Td>
                    <Td className="text-right">
                      <Money cents={s.feeCents} />
                    </Td>
                    <Td className="text-right">{s.refundedCents ? <Money cents={s.refundedCents} /> : '—'}</Td>
                    <Td>
                      <time dateTime={s.createdAt}>{formatDate(s.createdAt)}</time>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </div>
      </Panel>
      <Panel title="Addresses" description="Archived addresses were used by a shipment and kept for its history.">
        <div>
          {addresses.length === 0 ? (
            <EmptyState title="No addresses" description="This user has not added an address." />
          ) : (
            <ul className="grid gap-4 md:grid-cols-2" aria-label="Addresses">
              {addresses.map((a) => (
                <li key={a.id} className="space-y-2 rounded-xl border border-white/10 p-4">
                  <AddressBlock address={a} />
                  <div className="flex flex-wrap gap-1">
                    {a.isDefault ? <Badge tone="violet">Default</Badge> : null}
                    {a.archived ? <Badge tone="neutral">Archived</Badge> : null}
                    <Badge tone="info">
                      {plural(a.shipmentCount, 'shipment')}
                    </Badge>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      </Panel>
    </div>
  );
}
