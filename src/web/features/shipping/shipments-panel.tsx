import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Package } from 'lucide-react';
import { useState } from 'react';
import { SHIPMENT_STATUS_LABEL, SHIPMENT_STATUSES, type Shipment } from '@shared/contracts/shipping';
import {
  Button,
  ConfirmDialog,
  Dialog,
  EmptyState,
  Money,
  Pagination,
  Panel,
  Select,
  SkeletonText,
  TBody,
  THead,
  Table,
  Td,
  Th,
  Tr,
  buttonClasses,
  toast,
} from '@web/components/ui';
import { useUrlState } from '@web/lib/url-state';
import { shipmentQuery, shipmentsQuery, useCancelShipment, useShippingLiveUpdates, type ShipmentQuery } from './api';
import { AddressBlock, CardList, LoadError, StatusBadge, Timeline, Tracking, errorText, formatDate } from './parts';
import { plural } from '@web/lib/format';

const PAGE_SIZE = 10;
const URL_DEFAULTS = { status: 'all', page: '1', shipment: '' };

/** /profile/shipping: the user's shipments (newest first), each with its detail, live. */
export function ShipmentsPanel() {
  const [s, set] = useUrlState(URL_DEFAULTS);
  const page = Number(s.page) || 1;
  const q: ShipmentQuery = { status: s.status as ShipmentQuery['status'], page, pageSize: PAGE_SIZE };
  const list = useQuery(shipmentsQuery(q));
  useShippingLiveUpdates((e) => {
    const label = SHIPMENT_STATUS_LABEL[e.status];
    if (label) toast.info('Shipment updated', `A shipment is now ${label.toLowerCase()}.`);
  });
  const data = list.data;

  return (
    <Panel
      id="shipments"
      title="Shipments"
      description="Cards you asked us to ship, with their status and tracking. This page updates by itself."
      actions={
        <Link to="/collect" className={buttonClasses({ size: 'sm', variant: 'secondary' })}>
          Ship cards from my vault
        </Link>
      }
    >
      <div className="space-y-4">
        <div className="max-w-xs">
          <label htmlFor="shipment-status" className="block text-sm font-medium text-zinc-200">
            Status
          </label>
          <div className="mt-1">
            <Select id="shipment-status" value={s.status} onChange={(e) => set({ status: e.target.value })}>
              <option value="all">All shipments</option>
              {SHIPMENT_STATUSES.map((st) => (
                <option key={st} value={st}>
                  {SHIPMENT_STATUS_LABEL[st]}
                </option>
              ))}
            </Select>
          </div>
        </div>
        {list.isError ? (
          <LoadError what="your shipments" error={list.error} retry={() => void list.refetch()} />
        ) : !data ? (
          <SkeletonText lines={4} label="Loading your shipments" />
        ) : data.items.length === 0 ? (
          <EmptyState
            icon={<Package />}
            title={s.status === 'all' ? 'No shipments yet' : 'No shipments with this status'}
            description={s.status === 'all' ? 'Pick cards in your vault and choose "Ship" to have them sent to you.' : 'Pick another status to see the others.'}
          />
        ) : (
          <>
            <Table caption={`Your shipments (${data.total})`} captionHidden>
              <THead>
                <Tr>
                  <Th>Shipment</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Cards</Th>
                  <Th>To</Th>
                  <Th className="text-right">Fee</Th>
                  <Th className="text-right">Refunded</Th>
                  <Th>Requested</Th>
                </Tr>
              </THead>
              <TBody>
                {data.items.map((it) => (
                  <Tr key={it.id}>
                    <Td>
                      <button
                        type="button"
                        className="font-medium text-violet-300 underline underline-offset-4 hover:text-violet-200"
                        onClick={() => set({ shipment: it.id }, { keepPage: true })}
                      >
                        {it.reference}
                      </button>
                    </Td>
                    <Td>
                      <StatusBadge status={it.status} />
                    </Td>
                    <Td className="text-right tabular-nums">{it.cardCount}</Td>
                    <Td className="max-w-48 truncate">{it.shipTo}</Td>
                    <Td className="text-right">
                      <Money cents={it.feeCents} />
                    </Td>
                    <Td className="text-right">{it.refundedCents > 0 ? <Money cents={it.refundedCents} className="text-emerald-300" /> : '—'}</Td>
                    <Td>
                      <time dateTime={it.createdAt}>{formatDate(it.createdAt)}</time>
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
            <Pagination page={page} pageCount={Math.ceil(data.total / PAGE_SIZE)} onPageChange={(p) => set({ page: String(p) }, { keepPage: true })} label="Shipment pages" />
          </>
        )}
      </div>
      {s.shipment ? <ShipmentDialog id={s.shipment} onClose={() => set({ shipment: '' }, { keepPage: true })} /> : null}
    </Panel>
  );
}

function ShipmentDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useQuery(shipmentQuery(id));
  const s = q.data;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={s ? `Shipment ${s.reference}` : 'Shipment'}
      className="max-w-2xl"
      footer={
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {q.isError ? (
        <LoadError what="this shipment" error={q.error} retry={() => void q.refetch()} />
      ) : !s ? (
        <SkeletonText lines={6} label="Loading the shipment" />
      ) : (
        <ShipmentDetail shipment={s} />
      )}
    </Dialog>
  );
}

/** Everything the user knows about one shipment, and its cancel button while it is requested. */
export function ShipmentDetail({ shipment: s }: { shipment: Shipment }) {
  const cancel = useCancelShipment();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="space-y-5" aria-live="polite">
      <div className="flex flex-wrap items-center gap-3">
        <StatusBadge status={s.status} />
        <span className="text-sm text-zinc-400">
          {plural(s.cardCount, 'card')} · requested {formatDate(s.createdAt)}
        </span>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <section aria-labelledby={`ship-to-${s.id}`}>
          <h3 id={`ship-to-${s.id}`} className="mb-1 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
            Ship to
          </h3>
          <AddressBlock address={s.address} />
        </section>
        <section aria-labelledby={`tracking-${s.id}`}>
          <h3 id={`tracking-${s.id}`} className="mb-1 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
            Tracking
          </h3>
          <p className="text-sm text-zinc-200">
            <Tracking carrier={s.carrier} trackingNumber={s.trackingNumber} trackingUrl={s.trackingUrl} />
          </p>
        </section>
      </div>
      <section aria-labelledby={`fee-${s.id}`}>
        <h3 id={`fee-${s.id}`} className="mb-1 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
          Fee
        </h3>
        <FeeTable shipment={s} />
      </section>
      <section aria-labelledby={`cards-${s.id}`}>
        <h3 id={`cards-${s.id}`} className="mb-2 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
          Cards
        </h3>
        <CardList cards={s.cards} />
      </section>
      <section aria-labelledby={`timeline-${s.id}`}>
        <h3 id={`timeline-${s.id}`} className="mb-2 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
          Timeline
        </h3>
        <Timeline events={s.events} />
      </section>
      {s.canCancel ? (
        <div className="rounded-xl border border-white/10 p-4">
          <p className="text-sm text-zinc-300">
            Changed your mind? While we have not started packing, you can cancel: the fee of <Money cents={s.feeCents} /> comes back to your
            balance and the cards go back to your vault.
          </p>
          <Button variant="danger" className="mt-3" onClick={() => setConfirming(true)}>
            Cancel shipment
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Cancel shipment ${s.reference}?`}
        description="The fee is refunded to your balance and the cards go back to your vault."
        confirmLabel="Cancel shipment"
        cancelLabel="Keep it"
        variant="danger"
        onConfirm={async () => {
          try {
            const r = await cancel.mutateAsync(s.id);
            toast.success('Shipment cancelled', `${r.refundedCents > 0 ? 'The fee is back in your balance; ' : ''}the cards are back in your vault.`);
          } catch (err) {
            toast.error('The shipment was not cancelled', errorText(err));
            throw err;
          }
        }}
      />
    </div>
  );
}

export function FeeTable({ shipment: s }: { shipment: Pick<Shipment, 'baseFeeCents' | 'cardsFeeCents' | 'insuranceCents' | 'feeCents' | 'refundedCents' | 'insured' | 'declaredValueCents' | 'cardCount'> }) {
  return (
    <dl className="grid max-w-sm grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
      <dt className="text-zinc-400">Base fee</dt>
      <dd className="text-right">
        <Money cents={s.baseFeeCents} />
      </dd>
      <dt className="text-zinc-400">
        {plural(s.cardCount, 'card')}
      </dt>
      <dd className="text-right">
        <Money cents={s.cardsFeeCents} />
      </dd>
      <dt className="text-zinc-400">{s.insured ? <>Insurance (declared <Money cents={s.declaredValueCents} />)</> : 'Insurance'}</dt>
      <dd className="text-right">{s.insured ? <Money cents={s.insuranceCents} /> : 'None'}</dd>
      <dt className="font-semibold text-white">Charged</dt>
      <dd className="text-right font-semibold text-white">
        <Money cents={s.feeCents} />
      </dd>
      {s.refundedCents > 0 ? (
        <>
          <dt className="text-emerald-300">Refunded</dt>
          <dd className="text-right text-emerald-300">
            <Money cents={s.refundedCents} />
          </dd>
        </>
      ) : null}
    </dl>
  );
}
