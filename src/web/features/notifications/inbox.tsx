import { useRef, type KeyboardEvent } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useRouter } from '@tanstack/react-router';
import { BellOff, Settings } from 'lucide-react';
import type { Notification } from '@shared/contracts/notifications';
import { Button, cn, Notice, Spinner } from '@web/components/ui';
import { formatDateTime, timeAgo } from '@web/lib/format';
import { inboxQuery, useMarkAllRead, useMarkRead } from './api';

/** An app path we may navigate to (never another origin). */
const isAppPath = (link: string | null): link is string => !!link && link.startsWith('/') && !link.startsWith('//');

function Entry({ n, onOpen }: { n: Notification; onOpen: (n: Notification) => void }) {
  const unread = !n.readAt;
  const body = (
    <>
      <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', unread ? 'bg-fuchsia-400' : 'bg-transparent')} />
      <span className="min-w-0 flex-1">
        {unread ? <span className="sr-only">Unread: </span> : null}
        <span className={cn('block break-words', unread ? 'font-semibold text-white' : 'text-zinc-200')}>{n.title}</span>
        {n.body ? <span className="mt-0.5 block break-words text-zinc-400">{n.body}</span> : null}
        <time dateTime={n.createdAt} title={formatDateTime(n.createdAt)} className="mt-1 block text-xs text-zinc-400">
          {timeAgo(n.createdAt)}
        </time>
      </span>
    </>
  );
  const cls = cn(
    'flex w-full gap-2.5 rounded-lg px-3 py-2.5 text-left outline-none',
    'focus-visible:outline-2 focus-visible:outline-violet-400',
    unread && 'bg-violet-500/[0.07]',
  );
  if (isAppPath(n.link)) {
    return (
      <a
        href={n.link}
        data-inbox-entry=""
        className={cn(cls, 'hover:bg-white/10')}
        onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) {
            onOpen({ ...n, link: null });
            return;
          }
          e.preventDefault();
          onOpen(n);
        }}
      >
        {body}
      </a>
    );
  }
  return (
    <div className={cn(cls, 'items-start')}>
      {body}
      {unread ? (
        <Button data-inbox-entry="" variant="ghost" size="sm" className="shrink-0" onClick={() => onOpen(n)}>
          Mark read
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The dropdown inbox: newest first, unread marked, each entry opening what it is about (and so
 * marking it read), "Mark all read", more on demand, and the way to the settings. Up/Down move
 * between entries; Tab works as everywhere.
 */
export function Inbox({ onClose, titleId }: { onClose: () => void; titleId: string }) {
  const router = useRouter();
  const inbox = useInfiniteQuery(inboxQuery);
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const list = useRef<HTMLUListElement>(null);
  const items = inbox.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = inbox.data?.pages[0]?.unreadCount ?? 0;

  const open = (n: Notification) => {
    if (!n.readAt) markRead.mutate(n.id);
    if (isAppPath(n.link)) {
      onClose();
      void router.history.push(n.link);
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'Home' && e.key !== 'End') return;
    const entries = Array.from(list.current?.querySelectorAll<HTMLElement>('[data-inbox-entry]') ?? []);
    if (!entries.length) return;
    e.preventDefault();
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const next =
      e.key === 'Home' ? 0 : e.key === 'End' ? entries.length - 1 : e.key === 'ArrowDown' ? Math.min(entries.length - 1, at + 1) : Math.max(0, at - 1);
    entries[next]?.focus();
  };

  return (
    <div className="flex max-h-[min(36rem,calc(100dvh-5rem))] flex-col">
      <div className="flex items-center justify-between gap-2 border-b border-white/10 px-4 py-3">
        <h2 id={titleId} className="text-base font-semibold text-white">
          Notifications
        </h2>
        <Button
          variant="ghost"
          size="sm"
          disabled={unread === 0 || markAll.isPending}
          loading={markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          Mark all read
        </Button>
      </div>
      {markAll.isError || markRead.isError ? (
        <Notice tone="danger" className="m-3">
          {(markAll.error ?? markRead.error)?.message ?? 'That did not work.'} Try again.
        </Notice>
      ) : null}
      <div className="min-h-0 flex-1 overflow-y-auto p-1.5" onKeyDown={onKeyDown}>
        {inbox.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner label="Loading notifications" />
          </div>
        ) : inbox.isError && !inbox.data ? (
          <Notice
            tone="danger"
            className="m-1.5"
            title="We could not load your notifications"
            action={
              <Button size="sm" variant="secondary" onClick={() => void inbox.refetch()}>
                Try again
              </Button>
            }
          >
            {inbox.error instanceof Error ? inbox.error.message : "Try again in a moment."}
          </Notice>
        ) : items.length === 0 ? (
          <div className="flex flex-col items-center px-4 py-8 text-center">
            <BellOff aria-hidden="true" className="mb-2 size-6 text-violet-300" />
            <p className="font-semibold text-white">You're all caught up</p>
            <p className="mt-1 text-zinc-400">Deposits, big pulls, shipments and drop wins show up here.</p>
          </div>
        ) : (
          <>
            {inbox.isRefetchError ? (
              <p role="status" className="px-3 py-2 text-xs text-amber-200">
                These may be out of date: we could not refresh them. Close and open the inbox to try again.
              </p>
            ) : null}
            <ul ref={list} aria-labelledby={titleId} className="space-y-1">
              {items.map((n) => (
                <li key={n.id}>
                  <Entry n={n} onOpen={open} />
                </li>
              ))}
            </ul>
            {inbox.hasNextPage ? (
              <div className="p-2">
                <Button
                  variant="secondary"
                  size="sm"
                  className="w-full"
                  loading={inbox.isFetchingNextPage}
                  onClick={() => void inbox.fetchNextPage()}
                >
                  Load more
                </Button>
              </div>
            ) : null}
          </>
        )}
      </div>
      <div className="border-t border-white/10 px-4 py-2.5">
        <Link
          to="/profile/notifications"
          onClick={onClose}
          className="inline-flex items-center gap-2 rounded text-sm text-violet-200 hover:text-white hover:underline"
        >
          <Settings aria-hidden="true" className="size-4" /> Notification settings
        </Link>
      </div>
    </div>
  );
}
