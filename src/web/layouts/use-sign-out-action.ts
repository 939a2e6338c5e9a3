import { useNavigate } from '@tanstack/react-router';
import { toast } from '@web/components/ui/toast';
import { useSignOut } from '@web/features/auth/session';

/** Sign-out for menus: tells the user, lands on the front page. */
export function useSignOutAction() {
  const signOut = useSignOut();
  const navigate = useNavigate();
  return {
    pending: signOut.isPending,
    run: () =>
      signOut.mutate(undefined, {
        onSuccess: () => toast.success('You are signed out.'),
        onError: () => toast.error('We could not reach the server.', 'You may still be signed in. Try again.'),
        onSettled: () => void navigate({ to: '/' }),
      }),
  };
}
