import { useNavigate } from '@tanstack/react-router';
import { toast } from '@web/components/ui/toast';
import { useSignOut } from '@web/features/auth/session';

/**
 * Sign-out for menus: tells the user, lands on the front page. Awaits the mutation's promise
 * rather than passing callbacks to mutate(): signing out swaps the signed-in header for the
 * visitor's, which unmounts the menu, and TanStack Query drops per-call callbacks of an unmounted
 * observer (the toast and the redirect never happened from the desktop menu).
 */
export function useSignOutAction() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return {
    pending: signOut.isPending,
    run: () => {
      void signOut
        .mutateAsync(undefined)
        .then(
          () => toast.success('You are signed out.'),
          () => toast.error('We could not reach the server.', 'You may still be signed in. Try again.'),
        )
        .finally(() => void navigate({ to: '/' }));
    },
  };
}
