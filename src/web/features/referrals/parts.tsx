import type { ReferralStatus } from '@shared/contracts/referrals';
import { Badge, Button, Notice, type BadgeTone } from '@web/components/ui';
import { errorText } from '@web/lib/api-errors';
import { STATUS_LABEL } from './format';

const TONE: Record<ReferralStatus, BadgeTone> = {
  pending: 'info',
  qualified: 'success',
  rejected: 'warning',
  voided: 'neutral',
  reversed: 'danger',
};

/** A referral's status as a word on a coloured badge (the word carries the meaning). */
export function ReferralStatusBadge({ status }: { status: ReferralStatus }) {
  return <Badge tone={TONE[status]}>{STATUS_LABEL[status]}</Badge>;
}

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
