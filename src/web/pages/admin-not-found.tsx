import { Link } from '@tanstack/react-router';
import { buttonClasses } from '@web/components/ui';

export default function AdminNotFoundPage() {
  return (
    <section aria-labelledby="page-title" className="max-w-xl space-y-4 py-8">
      <p className="text-sm font-semibold tracking-widest text-fuchsia-300 uppercase">404 · Back office</p>
      <h1 id="page-title" className="text-2xl font-bold text-white">
        Admin page not found
      </h1>
      <p className="text-zinc-300">
        There is no back-office screen at this address. Pick a screen from the admin menu, or start from the dashboard.
      </p>
      <Link to="/admin" className={buttonClasses({ variant: 'secondary' })}>
        Back to the dashboard
      </Link>
    </section>
  );
}
