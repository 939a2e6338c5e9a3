import { useNavigate } from '@tanstack/react-router';
import { toast } from '@web/components/ui/toast';
import { useSignOut } from '@web/features/auth/session-actions';

/**
 * Sign-out for menus: lands on the front page, then signs out and tells the user. The front page
 * comes first: the signed-in page's queries, still mounted when the session ends, would refetch
 * as a visitor and fail with 401 (issue 19). Awaits the mutation's promise rather than passing
 * callbacks to mutate(): signing out swaps the signed-in header for the visitor's, which unmounts
 * the menu, and TanStack Query drops per-call callbacks of an unmounted observer.
 */
export function useSignOutAction() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return {
    pending: signOut.isPending,
    run: () => {
      void navigate({ to: '/' })
        .then(() => signOut.mutateAsync(undefined))
        .then(
          () => toast.success('You are signed out.'),
          () => toast.error('We could not reach the server.', 'You may still be signed in. Try again.'),
        );
    },
  };
}
