import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useRouterState } from '@tanstack/react-router';
import { Wrench } from 'lucide-react';
import type { ApiError } from '@shared/api-error';
import type { Me } from '@shared/contracts/me';
import type { MaintenanceState } from '@shared/contracts/maintenance';
import { apiSignals } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';
import { maintenanceKeys, maintenanceQuery } from './api';

/** Pages that stay reachable during maintenance: the page itself, and an admin's way in. */
const REACHABLE = new Set(['/maintenance', '/sign-in', '/login-mfa']);

/**
 * The shape of a `maintenance.changed` payload. Checked by hand: this file is in the app's entry
 * chunk, and the contract's zod schema would bring zod (~25 KB gzipped) onto every public page.
 */
function isMaintenanceState(x: unknown): x is MaintenanceState {
  if (typeof x !== 'object' || x === null) return false;
  const o = x as Record<string, unknown>;
  const instant = (v: unknown) => v === null || typeof v === 'string';
  return typeof o.enabled === 'boolean' && typeof o.message === 'string' && instant(o.endsAt) && instant(o.changedAt);
}

export function isMfaAdmin(me: Me | null | undefined): boolean {
  return !!me && (me.user.role === 'admin' || me.user.role === 'owner') && me.session.mfaPassed;
}

/**
 * Keeps the app's idea of the switch current — the public state on load, `maintenance.changed` on
 * the event stream, and any API call's 503 `maintenance` — and sends everyone but an admin with
 * two-factor to /maintenance (remembering where they were). Admins see a banner instead.
 * Mounted once by the root layout.
 */
export function MaintenanceWatch({ me, sessionReady }: { me: Me | null | undefined; sessionReady: boolean }) {
  const qc = useQueryClient();
  const { data } = useQuery(maintenanceQuery);
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location });

  useRealtimeEvent<unknown>('maintenance.changed', (payload) => {
    if (isMaintenanceState(payload)) qc.setQueryData(maintenanceKeys.public, payload);
    else void qc.invalidateQueries({ queryKey: maintenanceKeys.public });
  });

  useEffect(() => {
    const onSignal = (e: Event) => {
      const err = (e as CustomEvent<ApiError>).detail;
      qc.setQueryData<MaintenanceState>(maintenanceKeys.public, (old) => ({
        enabled: true,
        message: err.message,
        endsAt: err.endsAt ?? null,
        changedAt: old?.changedAt ?? null,
      }));
    };
    apiSignals.addEventListener('maintenance', onSignal);
    return () => apiSignals.removeEventListener('maintenance', onSignal);
  }, [qc]);

  const on = data?.enabled === true;
  const admin = isMfaAdmin(me);
  const mustLeave = on && sessionReady && !admin && !REACHABLE.has(location.pathname);
  useEffect(() => {
    if (!mustLeave) return;
    void navigate({ to: '/maintenance', search: { from: location.href }, replace: true });
  }, [mustLeave, navigate, location.href]);

  if (!on || !admin) return null;
  return (
    <aside aria-label="Maintenance mode" className="flex flex-wrap items-center justify-center gap-x-3 gap-y-1 bg-amber-400 px-4 py-2 text-center text-sm font-medium text-zinc-950">
      <Wrench aria-hidden="true" className="size-4 shrink-0" />
      <span>Maintenance mode is on — visitors see the maintenance page.</span>
      {me?.user.role === 'owner' ? (
        <Link to="/admin/maintenance" className="font-semibold underline underline-offset-2">
          Turn it off
        </Link>
      ) : null}
    </aside>
  );
}
