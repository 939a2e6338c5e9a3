import { ExternalLink } from 'lucide-react';
import {
  CARRIER_LABEL,
  COUNTRIES,
  SHIPMENT_STATUS_LABEL,
  type AddressSnapshot,
  type Carrier,
  type ShipmentCard,
  type ShipmentEvent,
  type ShipmentStatus,
} from '@shared/contracts/shipping';
import { Badge, Button, Money, Notice, type BadgeTone } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}
export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

export const STATUS_TONE: Record<ShipmentStatus, BadgeTone> = {
  requested: 'violet',
  packing: 'warning',
  shipped: 'info',
  delivered: 'success',
  cancelled: 'neutral',
  lost: 'danger',
  returned: 'gold',
};

export function StatusBadge({ status }: { status: ShipmentStatus }) {
  return <Badge tone={STATUS_TONE[status]}>{SHIPMENT_STATUS_LABEL[status]}</Badge>;
}

export function countryName(code: string): string {
  return COUNTRIES[code] ?? code;
}

/** The lines of an address as a postal label prints them. */
export function addressLines(a: AddressSnapshot): string[] {
  return [
    a.name,
    a.line1,
    a.line2,
    [a.city, a.region, a.postalCode].filter(Boolean).join(', '),
    countryName(a.country),
  ].filter((l) => l.trim() !== '');
}

export function AddressBlock({ address, withPhone = true, className }: { address: AddressSnapshot; withPhone?: boolean; className?: string }) {
  return (
    <address className={className ?? 'text-sm leading-relaxed text-zinc-200 not-italic'}>
      {addressLines(address).map((l, i) => (
        <span key={i} className={i === 0 ? 'block font-medium text-white' : 'block'}>
          {l}
        </span>
      ))}
      {withPhone && address.phone ? <span className="block text-zinc-400">Phone {address.phone}</span> : null}
    </address>
  );
}

const EVENT_LABEL: Record<ShipmentEvent['type'], string> = {
  requested: 'Requested',
  packing: 'Packing',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  lost: 'Marked lost',
  returned: 'Returned to sender',
  refunded: 'Refunded',
  cards_restored: 'Cards back in the vault',
};

/** A refund's note is its amount in cents ("600 cents"): shown as money. */
function noteText(note: string) {
  const m = /^(\d+) cents$/.exec(note);
  return m ? <Money cents={Number(m[1])} /> : note;
}

/** The shipment's history, oldest first, as an ordered list. */
export function Timeline({ events, showActor = false }: { events: ShipmentEvent[]; showActor?: boolean }) {
  const sorted = [...events].sort((a, b) => a.at.localeCompare(b.at));
  return (
    <ol className="relative space-y-4 border-l border-white/15 pl-5" aria-label="Timeline">
      {sorted.map((e) => (
        <li key={e.id} className="relative">
          <span aria-hidden="true" className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-violet-400 ring-4 ring-surface" />
          <p className="text-sm font-medium text-white">{EVENT_LABEL[e.type]}</p>
          <p className="text-xs text-zinc-400">
            <time dateTime={e.at}>{formatDateTime(e.at)}</time>
            {showActor ? ` · ${e.actor.role === 'system' ? 'system' : (e.actor.username ?? e.actor.role)}` : e.actor.role === 'admin' ? ` · ${e.actor.username ?? 'Packvault'}` : ''}
          </p>
          {e.note ? <p className="mt-1 text-sm text-zinc-300">{noteText(e.note)}</p> : null}
        </li>
      ))}
    </ol>
  );
}

export function Tracking({ carrier, trackingNumber, trackingUrl }: { carrier: Carrier | null; trackingNumber: string | null; trackingUrl: string | null }) {
  if (!trackingNumber) return <span className="text-zinc-400">Not shipped yet</span>;
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2">
      <span>{carrier ? CARRIER_LABEL[carrier] : 'Carrier'}</span>
      <span className="font-mono text-zinc-100">{trackingNumber}</span>
      {trackingUrl ? (
        <a href={trackingUrl} target="_blank" rel="noreferrer noopener" className="inline-flex items-center gap-1 text-violet-300 underline underline-offset-4 hover:text-violet-200">
          Track parcel
          <ExternalLink aria-hidden="true" className="size-3.5" />
          <span className="sr-only">(opens the carrier's site in a new tab)</span>
        </a>
      ) : null}
    </span>
  );
}

export function CardList({ cards, label = 'Cards in this shipment', showShelf = false }: { cards: ShipmentCard[]; label?: string; showShelf?: boolean }) {
  return (
    <ul className="divide-y divide-white/10 rounded-xl border border-white/10 text-sm" aria-label={label}>
      {cards.map((c) => (
        <li key={c.id} className="flex items-center justify-between gap-3 px-3 py-2">
          <span className="min-w-0">
            <span className="block truncate font-medium text-white">{c.name}</span>
            <span className="text-xs text-zinc-400">
              {c.setName} #{c.number}
              {showShelf ? ` · ${c.originName ?? 'Default origin'} · shelf ${c.shelfLocation || 'unassigned'}` : ''}
            </span>
          </span>
          <Money cents={c.valueCents} className="shrink-0 text-zinc-200" />
        </li>
      ))}
    </ul>
  );
}

export function errorText(err: unknown): string {
  if (err instanceof ApiClientError) return err.message;
  return 'Something went wrong. Try again in a moment.';
}

export function LoadError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  const notFound = error instanceof ApiClientError && error.status === 404;
  return (
    <Notice
      tone={notFound ? 'warning' : 'danger'}
      title={notFound ? `We could not find ${what}` : `We could not load ${what}`}
      action={
        notFound ? undefined : (
          <Button size="sm" variant="secondary" onClick={retry}>
            Try again
          </Button>
        )
      }
    >
      {notFound ? 'It may have been removed, or the link is wrong. Go back to the list.' : errorText(error)}
    </Notice>
  );
}
