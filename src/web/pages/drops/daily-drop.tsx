import { useParams } from '@tanstack/react-router';
import { useSession, isAdminRole } from '@web/features/auth/session';
import { renderCard } from '@web/features/catalog/card-view';
import { DropView } from '@web/features/drops/drop-view';
import { DropCardRenderer } from '@web/features/drops/parts';

/** /daily-drop/$id — one drop: its prize, countdown, live entry count, entering, result and proof. */
export default function DailyDropPage() {
  const { id } = useParams({ from: '/chrome/site/daily-drop/$id' });
  const { data: me } = useSession();
  const viewer = me ? { emailVerified: me.user.emailVerified, staff: isAdminRole(me) } : null;
  return (
    <DropCardRenderer value={renderCard}>
      <DropView id={id} viewer={viewer} />
    </DropCardRenderer>
  );
}
