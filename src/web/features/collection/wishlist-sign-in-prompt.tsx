import { Link, useLocation } from '@tanstack/react-router';
import { buttonClasses, Dialog } from '@web/components/ui';

/** Only mounted when asked, so the hearts of a grid do not each follow the location. */
export default function SignInPrompt({ onClose }: { onClose: () => void }) {
  const location = useLocation();
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Sign in to keep a wishlist"
      description="Heart the cards you want: we tell you when one can be pulled from a pack on sale."
    >
      <div className="flex flex-col gap-2 sm:flex-row">
        <Link to="/sign-in" search={{ redirect: location.href }} className={buttonClasses({ className: 'flex-1' })}>
          Sign in
        </Link>
        <Link to="/sign-up" className={buttonClasses({ variant: 'secondary', className: 'flex-1' })}>
          Create an account
        </Link>
      </div>
    </Dialog>
  );
}
