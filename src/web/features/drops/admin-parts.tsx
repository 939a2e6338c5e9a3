import type { DropStatus } from '@shared/contracts/drops';
import { Badge, Button, Notice, type BadgeTone } from '@web/components/ui';
import { errorText } from '@web/lib/api-errors';

export const DROP_STATUS_LABEL: Record<DropStatus, string> = {
  scheduled: 'Upcoming',
  open: 'Open',
  drawing: 'Drawing',
  closed: 'Closed',
  cancelled: 'Cancelled',
};

const TONE: Record<DropStatus, BadgeTone> = {
  scheduled: 'info',
  open: 'success',
  drawing: 'warning',
  closed: 'neutral',
  cancelled: 'danger',
};

export function DropStatusBadge({ status }: { status: DropStatus }) {
  return <Badge tone={TONE[status]}>{DROP_STATUS_LABEL[status]}</Badge>;
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

/** ISO instant → a datetime-local value in the admin's own zone. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** A datetime-local value (the admin's zone) → the instant the API takes; '' stays '' so the schema names the field. */
export function fromLocalInput(local: string): string {
  if (!local) return '';
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
}

/** The admin's zone, named in the date fields' hints so nobody guesses which clock they set. */
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export function LoadError({ what, error, retry }: { what: string; error: unknown; retry: () => void }) {
  return (
    <Notice
      tone="danger"
      title={`We could not load ${what}`}
      action={
        <Button variant="secondary" size="sm" onClick={retry}>
          Try again
        </Button>
      }
    >
      {errorText(error)} If it keeps happening, reload the page.
    </Notice>
  );
}
