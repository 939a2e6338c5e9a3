import { useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationList } from '@shared/contracts/notifications';
import { Popover, PopoverContent, PopoverTrigger } from '@web/components/ui';
import { api } from '@web/lib/api';
import { notificationKeys, unreadCountQuery, useNotificationEvents } from './api';
import { BellButton } from './bell-button';
import { Inbox } from './inbox';

/**
 * The header's bell for a signed-in user: the unread count (in its name and a badge), the inbox
 * in a popover, kept live from the event stream. A new notification is read out politely; focus
 * stays where the user is.
 */
export function NotificationBell() {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const titleId = useId();
  const trigger = useRef<HTMLButtonElement>(null);
  const { data } = useQuery(unreadCountQuery);
  const unread = data?.unreadCount ?? 0;

  useNotificationEvents(() => {
    // The event carries only an id: read the newest entry's title for the announcement.
    void api
      .get<NotificationList>('/api/notifications?limit=1')
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

  return (
    <>
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <BellButton ref={trigger} unread={unread} />
        </PopoverTrigger>
        <PopoverContent aria-labelledby={titleId} className="w-[min(24rem,calc(100vw-1rem))]">
          <Inbox titleId={titleId} onClose={() => setOpen(false)} />
        </PopoverContent>
      </Popover>
      <div role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </div>
    </>
  );
}

export default NotificationBell;
