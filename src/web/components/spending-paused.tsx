import { Link } from '@tanstack/react-router';
import { formatDateTime } from '@web/lib/format';

/**
 * Why a money button is disabled while the user has excluded themselves (the balance answer's
 * `selfExcludedUntil`): the server refuses these anyway, and a button that fails on click says
 * less. Give the disabled buttons `aria-describedby={id}`.
 */
export function SpendingPaused({ id, until, what }: { id: string; until: string; what: string }) {
  return (
    <div id={id} className="rounded-xl border border-amber-300/30 bg-amber-400/10 p-3 text-sm text-amber-100">
      <p className="font-semibold text-white">You are taking a break</p>
      <p className="mt-1">
        You excluded yourself until <time dateTime={until}>{formatDateTime(until)}</time>, so {what} is off until then.{' '}
        <Link to="/profile/privacy-and-security" className="font-semibold text-white underline underline-offset-4">
          Your limits
        </Link>
      </p>
    </div>
  );
}
