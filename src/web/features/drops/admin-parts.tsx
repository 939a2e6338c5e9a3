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
