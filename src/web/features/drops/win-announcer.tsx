import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { toast } from '@web/components/ui/toast';
import { useRealtimeEvent } from '@web/lib/realtime';

/**
 * Tells a signed-in winner the moment a drop is drawn, on whatever page they are (the in-app half
 * of "the winner is notified in app, live, and by email"; the mail goes from the server). Mounted
 * once by the site header for a signed-in user.
 */
export function DropWinAnnouncer() {
  const qc = useQueryClient();
  useRealtimeEvent<{ dropId?: unknown }>('drop.won', (e) => {
    // The literal key (dropKeys.all) keeps the drops API out of every page's header bundle.
    void qc.invalidateQueries({ queryKey: ['drops'] });
    void qc.invalidateQueries({ queryKey: ['collection'] });
    const dropId = typeof e?.dropId === 'string' ? e.dropId : null;
    toast({
      tone: 'success',
      title: 'You won a daily drop!',
      description: (
        <>
          The prize is already in your vault.{' '}
          {dropId ? (
            <Link to="/daily-drop/$id" params={{ id: dropId }} className="underline underline-offset-2">
              See the draw
            </Link>
          ) : (
            <Link to="/collect" className="underline underline-offset-2">
              Open your vault
            </Link>
          )}
        </>
      ),
      duration: 15_000,
    });
  });
  return null;
}
