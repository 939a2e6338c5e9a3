import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Wrench } from 'lucide-react';
import { buttonClasses, Spinner } from '@web/components/ui';
import { safeRedirect } from '@web/hooks/use-safe-redirect';
import { formatEnd, maintenanceQuery } from './api';

/** How often the page asks on its own, besides the event stream (which may be down too). */
const POLL_MS = 10_000;

/**
 * /maintenance: the owner's message and the expected end. Checks back by itself (poll + the
 * `maintenance.changed` event, which the root watch writes into the same query) and, once the
 * switch is off, returns the visitor to the page they were on.
 */
export function MaintenanceScreen({ siteName }: { siteName: string }) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  const from = typeof search.from === 'string' ? safeRedirect(search.from, '/') : null;
  const navigate = useNavigate();
  const { data, isPending } = useQuery({ ...maintenanceQuery, refetchInterval: POLL_MS, staleTime: 0 });
  const wasOn = useRef(false);
  if (data?.enabled) wasOn.current = true;
  const over = data?.enabled === false && (wasOn.current || from !== null);

  useEffect(() => {
    if (!over) return;
    // A full path with its search: the router takes it as is.
    void navigate({ href: from ?? '/', replace: true });
  }, [over, from, navigate]);

  if (isPending) {
    return (
      <div className="space-y-4 text-center">
        <h1 className="text-2xl font-bold text-white">Down for maintenance</h1>
        <Spinner label="Checking the shop" />
      </div>
    );
  }

  if (!data?.enabled) {
    return (
      <div className="space-y-4 text-center">
        <h1 className="text-2xl font-bold text-white">{over ? 'We are back' : `${siteName} is open`}</h1>
        <p className="text-zinc-300">{over ? 'Maintenance is over. Taking you back…' : 'Nothing is down for maintenance right now.'}</p>
        <Link to="/" className={buttonClasses()}>
          Go to the shop
        </Link>
      </div>
    );
  }

  const end = formatEnd(data.endsAt);
  return (
    <div className="space-y-5 text-center">
      <span aria-hidden="true" className="inline-flex rounded-2xl bg-violet-500/15 p-4 text-violet-300">
        <Wrench className="size-8" />
      </span>
      <h1 className="text-2xl font-bold tracking-tight text-white">Down for maintenance</h1>
      <p className="text-lg break-words whitespace-pre-line text-zinc-200">{data.message}</p>
      {end ? (
        <p className="text-zinc-300">
          Expected back: <time dateTime={data.endsAt ?? undefined}>{end}</time>
        </p>
      ) : null}
      <p className="text-sm text-zinc-400">
        Your cards, your balance and any shipments in progress are safe. This page checks by itself and takes you back when we are open.
      </p>
      <p className="text-sm">
        <Link to="/sign-in" className="text-zinc-400 underline hover:text-white">
          Staff sign-in
        </Link>
      </p>
    </div>
  );
}
