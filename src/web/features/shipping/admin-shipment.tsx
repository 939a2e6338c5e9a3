import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Printer } from 'lucide-react';
import type { z } from 'zod';
import {
  adminCancelSchema,
  advanceShipmentSchema,
  CARRIER_LABEL,
  CARRIERS,
  resolveShipmentSchema,
  SHIPMENT_STATUS_LABEL,
  type AdminShipment,
} from '@shared/contracts/shipping';
import { Button, Dialog, FormField, Input, Money, Notice, Panel, Select, SkeletonText, Textarea, toast } from '@web/components/ui';
import { applyServerErrors } from './address-form';
import { adminShipmentQuery, useAdminCancel, useAdvanceShipment, useResolveShipment } from './api';
import { FeeTable } from './shipments-panel';
import { AddressBlock, CardList, LoadError, StatusBadge, Timeline, Tracking, addressLines, formatDateTime } from './parts';
import './packing-slip.css';
import { plural } from '@web/lib/format';

/** /admin/shipping/{id}: the shipment, its actions, and a printable packing slip. */
export function AdminShipmentScreen({ id }: { id: string }) {
  const q = useQuery(adminShipmentQuery(id));
  const s = q.data;
  if (q.isError) return <LoadError what="this shipment" error={q.error} retry={() => void q.refetch()} />;
  if (!s) return <SkeletonText lines={8} label="Loading the shipment" />;
  return (
    <>
      <div className="space-y-6 print:hidden">
        <div className="flex flex-wrap items-center gap-3">
          <StatusBadge status={s.status} />
          <span className="text-sm text-zinc-300">
            {s.reference} · {plural(s.cardCount, 'card')} · requested {formatDateTime(s.createdAt)} by{' '}
            <Link to="/admin/users/$id/shipping" params={{ id: s.user.id }} className="text-violet-300 underline underline-offset-4">
              {s.user.username ?? s.user.email ?? 'this user'}
            </Link>
          </span>
          <Button variant="secondary" size="sm" className="ml-auto" onClick={() => window.print()}>
            <Printer aria-hidden="true" className="size-4" />
            Print packing slip
          </Button>
        </div>
        <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
          <div className="space-y-6">
            <Panel title="Ship to">
              <div className="grid gap-4 sm:grid-cols-2">
                <AddressBlock address={s.address} />
                <div className="space-y-2 text-sm text-zinc-300">
                  <p>
                    <span className="text-zinc-400">From: </span>
                    {s.origin ? (
                      <Link to="/admin/shipping/from/$id" params={{ id: s.origin.id }} className="text-violet-300 underline underline-offset-4">
                        {s.origin.name}
                      </Link>
                    ) : (
                      'the default origin'
                    )}
                  </p>
                  <p>
                    <span className="text-zinc-400">Tracking: </span>
                    <Tracking carrier={s.carrier} trackingNumber={s.trackingNumber} trackingUrl={s.trackingUrl} />
                  </p>
                </div>
              </div>
            </Panel>
            <Panel title="Cards" description="With their origin and shelf: pull them for packing.">
              <div>
                <CardList cards={s.cards} showShelf />
              </div>
            </Panel>
            <Panel title="Fee">
              <div>
                <FeeTable shipment={s} />
              </div>
            </Panel>
          </div>
          {/* On a phone the actions come first; on a wide screen they sit in the side column. */}
          <div className="order-first space-y-6 lg:order-none">
            <Actions shipment={s} />
            <Panel title="Timeline">
              <div>
                <Timeline events={s.events} showActor />
              </div>
            </Panel>
          </div>
        </div>
      </div>
      <PackingSlip shipment={s} />
    </>
  );
}

function Actions({ shipment: s }: { shipment: AdminShipment }) {
  const [dialog, setDialog] = useState<'cancel' | 'resolve' | null>(null);
  const cancellable = s.status === 'requested' || s.status === 'packing';
  const none = !s.nextStatus && !cancellable && !s.canResolve;
  return (
    <Panel title="Actions">
      <div className="space-y-4">
        {none ? <p className="text-sm text-zinc-400">This shipment is {SHIPMENT_STATUS_LABEL[s.status].toLowerCase()}: nothing more to do.</p> : null}
        {s.nextStatus ? <AdvanceForm key={`${s.id}-${s.nextStatus}`} shipment={s} /> : null}
        <div className="flex flex-wrap gap-2">
          {cancellable ? (
            <Button variant="danger" onClick={() => setDialog('cancel')}>
              Cancel shipment
            </Button>
          ) : null}
          {s.canResolve ? (
            <Button variant="secondary" onClick={() => setDialog('resolve')}>
              Mark lost or returned
            </Button>
          ) : null}
        </div>
      </div>
      {dialog === 'cancel' ? <CancelDialog shipment={s} onClose={() => setDialog(null)} /> : null}
      {dialog === 'resolve' ? <ResolveDialog shipment={s} onClose={() => setDialog(null)} /> : null}
    </Panel>
  );
}

type AdvanceIn = z.input<typeof advanceShipmentSchema>;
type AdvanceOut = z.output<typeof advanceShipmentSchema>;

function AdvanceForm({ shipment: s }: { shipment: AdminShipment }) {
  const to = s.nextStatus as 'packing' | 'shipped' | 'delivered';
  const advance = useAdvanceShipment(s.id);
  const form = useForm<AdvanceIn, unknown, AdvanceOut>({
    resolver: zodResolver(advanceShipmentSchema),
    defaultValues: { to, note: '', ...(to === 'shipped' ? { carrier: undefined, trackingNumber: '' } : {}) },
  });
  const { register, handleSubmit, formState, setError } = form;
  const e = formState.errors;
  const submit = handleSubmit(async (v) => {
    const body: AdvanceOut = { to: v.to, ...(v.note ? { note: v.note } : {}), ...(to === 'shipped' ? { carrier: v.carrier, trackingNumber: v.trackingNumber } : {}) };
    try {
      const r = await advance.mutateAsync(body);
      toast.success(`${r.reference} is ${SHIPMENT_STATUS_LABEL[r.status].toLowerCase()}`, 'The user was told.');
    } catch (err) {
      setError('root', { message: applyServerErrors(err, setError, ['carrier', 'trackingNumber', 'note', 'to']) });
    }
  });
  return (
    <form onSubmit={submit} noValidate className="space-y-3 rounded-xl border border-white/10 p-4">
      <p className="text-sm font-semibold text-white">Next step: {SHIPMENT_STATUS_LABEL[to]}</p>
      {e.root?.message ? (
        <Notice tone="danger" title="The shipment did not move">
          {e.root.message}
        </Notice>
      ) : null}
      {to === 'shipped' ? (
        <>
          <FormField label="Carrier" required error={e.carrier?.message}>
            <Select {...register('carrier', { setValueAs: (v: string) => (v === '' ? undefined : v) })}>
              <option value="">Pick a carrier</option>
              {CARRIERS.map((c) => (
                <option key={c} value={c}>
                  {CARRIER_LABEL[c]}
                </option>
              ))}
            </Select>
          </FormField>
          <FormField label="Tracking number" required error={e.trackingNumber?.message}>
            <Input autoComplete="off" {...register('trackingNumber')} />
          </FormField>
        </>
      ) : null}
      <FormField label="Note for the timeline" error={e.note?.message} hint="Optional; the user sees it.">
        <Input {...register('note')} />
      </FormField>
      <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
        Mark {SHIPMENT_STATUS_LABEL[to].toLowerCase()}
      </Button>
    </form>
  );
}

type CancelIn = z.input<typeof adminCancelSchema>;

function CancelDialog({ shipment: s, onClose }: { shipment: AdminShipment; onClose: () => void }) {
  const cancel = useAdminCancel(s.id);
  const form = useForm<CancelIn>({ resolver: zodResolver(adminCancelSchema), defaultValues: { reason: '' } });
  const { register, handleSubmit, formState, setError } = form;
  const submit = handleSubmit(async (v) => {
    try {
      await cancel.mutateAsync(v);
      toast.success(`${s.reference} cancelled`, 'The fee was refunded and the cards are back in the vault.');
      onClose();
    } catch (err) {
      setError('root', { message: applyServerErrors(err, setError, ['reason']) });
    }
  });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && !formState.isSubmitting && onClose()}
      title={`Cancel ${s.reference}?`}
      description={
        <>
          Refunds the fee (<Money cents={s.feeCents} />) and puts the {plural(s.cardCount, 'card')} back in the user's vault. The user sees the reason.
        </>
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        {formState.errors.root?.message ? (
          <Notice tone="danger" title="Not cancelled">
            {formState.errors.root.message}
          </Notice>
        ) : null}
        <FormField label="Reason" required error={formState.errors.reason?.message}>
          <Textarea rows={3} {...register('reason')} />
        </FormField>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Keep it
          </Button>
          <Button type="submit" variant="danger" loading={formState.isSubmitting} loadingText="Cancelling…">
            Cancel shipment
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

type ResolveIn = z.input<typeof resolveShipmentSchema>;

function ResolveDialog({ shipment: s, onClose }: { shipment: AdminShipment; onClose: () => void }) {
  const resolve = useResolveShipment(s.id);
  const form = useForm<ResolveIn>({ resolver: zodResolver(resolveShipmentSchema), defaultValues: { outcome: 'lost', resolution: 'restore_cards', reason: '' } });
  const { register, handleSubmit, formState, setError, watch } = form;
  const outcome = watch('outcome');
  const e = formState.errors;
  const submit = handleSubmit(async (v) => {
    try {
      const r = await resolve.mutateAsync(v);
      toast.success(`${r.reference} marked ${SHIPMENT_STATUS_LABEL[r.status].toLowerCase()}`, r.refundedCents > 0 ? 'The refund was credited to the user.' : 'The cards are back in the vault.');
      onClose();
    } catch (err) {
      setError('root', { message: applyServerErrors(err, setError, ['outcome', 'resolution', 'reason']) });
    }
  });
  return (
    <Dialog open onOpenChange={(o) => !o && !formState.isSubmitting && onClose()} title={`Lost or returned: ${s.reference}`} description="Decide what the user gets. The user is told, with your reason.">
      <form onSubmit={submit} noValidate className="space-y-4">
        {e.root?.message ? (
          <Notice tone="danger" title="Nothing changed">
            {e.root.message}
          </Notice>
        ) : null}
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-zinc-200">What happened</legend>
          <label className="flex items-center gap-2 text-sm text-zinc-200">
            <input type="radio" value="lost" className="size-4 accent-violet-500" {...register('outcome')} />
            The parcel is lost
          </label>
          <label className="flex items-center gap-2 text-sm text-zinc-200">
            <input type="radio" value="returned" className="size-4 accent-violet-500" {...register('outcome')} />
            It came back to us (returned to sender)
          </label>
        </fieldset>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-zinc-200">Resolution</legend>
          <label className="flex items-start gap-2 text-sm text-zinc-200">
            <input type="radio" value="restore_cards" className="mt-0.5 size-4 accent-violet-500" {...register('resolution')} />
            Put the cards back in the user's vault{outcome === 'returned' ? ' (the fee stays charged)' : ''}
          </label>
          <label className="flex items-start gap-2 text-sm text-zinc-200">
            <input type="radio" value="refund" className="mt-0.5 size-4 accent-violet-500" {...register('resolution')} />
            {outcome === 'lost' ? (
              <span>
                Refund <Money cents={s.suggestedRefundCents} /> ({s.insured ? 'fee + declared value, insured' : 'the fee'}); the cards are written off
              </span>
            ) : (
              <span>
                Cards back in the vault and refund the fee (<Money cents={s.feeCents} />)
              </span>
            )}
          </label>
          {e.resolution?.message ? <p className="text-sm text-red-300">{e.resolution.message}</p> : null}
        </fieldset>
        <FormField label="Reason" required error={e.reason?.message}>
          <Textarea rows={3} {...register('reason')} />
        </FormField>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onClose}>
            Back
          </Button>
          <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
            Confirm
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Printed alone (packing-slip.css hides the rest of the page): every card with set, number and shelf. */
function PackingSlip({ shipment: s }: { shipment: AdminShipment }) {
  const cards = [...s.cards].sort((a, b) => (a.originName ?? '').localeCompare(b.originName ?? '') || a.shelfLocation.localeCompare(b.shelfLocation) || a.name.localeCompare(b.name));
  return (
    <section className="packing-slip hidden print:block" aria-hidden="true">
      <h2>Packing slip {s.reference}</h2>
      <p>
        Requested {formatDateTime(s.createdAt)} · {plural(s.cardCount, 'card')} · {s.insured ? 'Insured' : 'Not insured'} · From {s.origin?.name ?? 'default origin'}
      </p>
      <div className="slip-address">
        <strong>Ship to</strong>
        {addressLines(s.address).map((l, i) => (
          <div key={i}>{l}</div>
        ))}
        <div>Phone {s.address.phone}</div>
      </div>
      <table>
        <thead>
          <tr>
            <th>✓</th>
            <th>Card</th>
            <th>Set</th>
            <th>No.</th>
            <th>Origin</th>
            <th>Shelf</th>
          </tr>
        </thead>
        <tbody>
          {cards.map((c) => (
            <tr key={c.id}>
              <td>☐</td>
              <td>{c.name}</td>
              <td>{c.setName}</td>
              <td>{c.number}</td>
              <td>{c.originName ?? 'Default'}</td>
              <td>{c.shelfLocation || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

