import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop, LogOut } from 'lucide-react';
import type { SessionInfo } from '@shared/contracts/account';
import { Badge, Button, ConfirmDialog, Notice, Panel, SkeletonText, toast } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { accountApi, accountKeys, sessionsQuery } from './api';
import { formatDateTime, plural, timeAgo } from '@web/lib/format';
import { errorText } from '@web/lib/api-errors';

function SessionRow({ s, onRevoke }: { s: SessionInfo; onRevoke: (s: SessionInfo) => Promise<void> }) {
  return (
    <li className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 gap-3">
        <span aria-hidden="true" className="mt-0.5 rounded-lg bg-white/5 p-2 text-zinc-300">
          <Laptop className="size-5" />
        </span>
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-2 font-medium text-white">
            {s.browser || 'Unknown browser'}
            {s.current ? <Badge tone="violet">This device</Badge> : null}
            {s.mfaPassed ? <Badge tone="success">Two-factor passed</Badge> : null}
          </p>
          <p className="text-sm text-zinc-400">
            IP {s.ip ?? 'unknown'} · Last seen{' '}
            <time dateTime={s.lastSeenAt} title={formatDateTime(s.lastSeenAt)}>
              {s.current ? 'now' : timeAgo(s.lastSeenAt)}
            </time>{' '}
            · Signed in {formatDateTime(s.createdAt)}
          </p>
        </div>
      </div>
      {s.current ? (
        <p className="text-sm text-zinc-400 sm:text-right">Use “Sign out” in the menu to end this one.</p>
      ) : (
        <ConfirmDialog
          title="Sign out this session?"
          description={`${s.browser || 'That browser'} (IP ${s.ip ?? 'unknown'}) is signed out at once and must sign in again.`}
          confirmLabel="Sign it out"
          variant="danger"
          onConfirm={() => onRevoke(s)}
          trigger={
            <Button variant="secondary" size="sm" aria-label={`Sign out ${s.browser || 'session'}, last seen ${timeAgo(s.lastSeenAt)}`}>
              <LogOut aria-hidden="true" className="size-4" /> Sign out
            </Button>
          }
        />
      )}
    </li>
  );
}

/** Active sessions (this device marked), revoke one or every other. */
export function SessionsPanel() {
  const q = useQuery(sessionsQuery);
  const qc = useQueryClient();
  const others = q.data?.filter((s) => !s.current).length ?? 0;

  const revoke = async (s: SessionInfo) => {
    try {
      await accountApi.revokeSession(s.id);
      toast.success('Session signed out', `${s.browser || 'That browser'} must sign in again.`);
    } catch (err) {
      // Already gone (expired or signed out elsewhere): the refreshed list shows the truth.
      if (!(err instanceof ApiClientError && err.status === 404)) {
        toast.error('Could not sign that session out', errorText(err));
        throw err;
      }
    } finally {
      await qc.invalidateQueries({ queryKey: accountKeys.sessions });
    }
  };
  const revokeOthers = async () => {
    try {
      const r = await accountApi.revokeOthers();
      toast.success(
        `${plural(r.revoked, 'other session')} signed out`,
        'Only this device stays signed in.',
      );
    } catch (err) {
      toast.error('Could not sign the other sessions out', errorText(err));
      throw err;
    } finally {
      await qc.invalidateQueries({ queryKey: accountKeys.sessions });
    }
  };

  return (
    <Panel
      id="sessions"
      title="Active sessions"
      description="Everywhere you are signed in now. Sign out anything you do not recognise, then change your password."
      actions={
        others > 0 ? (
          <ConfirmDialog
            title="Sign out every other session?"
            description={`${others === 1 ? 'The other session' : `All ${others} other sessions`} will be signed out at once. This device stays signed in.`}
            confirmLabel="Sign out others"
            variant="danger"
            onConfirm={revokeOthers}
            trigger={
              <Button variant="secondary" size="sm">
                Sign out all other sessions
              </Button>
            }
          />
        ) : null
      }
    >
      {q.isError ? (
        <Notice
          tone="danger"
          title="Your sessions could not load"
          action={
            <Button size="sm" variant="secondary" onClick={() => void q.refetch()}>
              Try again
            </Button>
          }
        >
          {errorText(q.error)}
        </Notice>
      ) : !q.data ? (
        <SkeletonText lines={4} label="Loading your sessions" />
      ) : (
        <ul aria-label="Sessions" className="-my-4 divide-y divide-white/10">
          {q.data.map((s) => (
            <SessionRow key={s.id} s={s} onRevoke={revoke} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
