import { useEffect, useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@web/lib/api';
import { notificationKeys, unreadCountQuery, useNotificationEvents } from './api';
import { BellButton } from './bell-button';
import { Inbox } from './inbox';

/**
 * The header's bell for a signed-in user: the unread count (in its name and a badge), the inbox
 * in a disclosure panel (a non-modal dialog: no focus trap, the page stays reachable; Escape,
 * clicking outside or tabbing away closes it, Escape returns focus to the bell), kept live from
 * the event stream. A new notification is read out politely; focus stays where the user is.
 */
export function NotificationBell() {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const titleId = useId();
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const { data } = useQuery(unreadCountQuery);
  const unread = data?.unreadCount ?? 0;

  useNotificationEvents(() => {
    // The event carries only an id: read the newest entry's title for the announcement.
    void api
      .get('/api/notifications', { query: { limit: 1 } })
      .then((r) => {
        const newest = r.items[0];
        if (!newest || newest.readAt) return;
        qc.setQueryData(notificationKeys.unreadCount, { unreadCount: r.unreadCount });
        // A changed string is announced again even when two notifications share a title.
        setAnnouncement((prev) => {
          const text = `New notification: ${newest.title}`;
          return prev === text ? `${text}\u00a0` : text;
        });
      })
      .catch(() => {});
  });

  // Opening moves focus into the panel; a pointer outside closes it.
  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onPointerDown = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) trigger.current?.focus();
  };

  return (
    <div
      ref={wrapper}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close(true);
        }
      }}
      onBlur={(e) => {
        // Tabbing out of the bell and its panel closes the panel.
        if (open && e.relatedTarget && !wrapper.current?.contains(e.relatedTarget as Node)) setOpen(false);
      }}
    >
      <BellButton
        ref={trigger}
        unread={unread}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-state={open ? 'open' : 'closed'}
        onClick={() => setOpen((o) => !o)}
      />
      {open ? (
        <div
          ref={panel}
          id={panelId}
          role="dialog"
          aria-labelledby={titleId}
          tabIndex={-1}
          className={
            'fixed inset-x-2 top-16 z-50 rounded-xl border border-white/10 bg-surface-2 text-sm text-zinc-100 shadow-2xl shadow-black/60 outline-none ' +
            'animate-fade-in sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96'
          }
        >
          <Inbox titleId={titleId} onClose={() => close(false)} />
        </div>
      ) : null}
      <div role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </div>
    </div>
  );
}

export default NotificationBell;
