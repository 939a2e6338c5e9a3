import { Link } from '@tanstack/react-router';

export default function AdminNotFoundPage() {
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <h1 id="page-title" className="text-2xl font-bold">
        Admin page not found
      </h1>
      <p className="text-zinc-300">There is no back-office screen at this address.</p>
      <Link to="/admin" className="text-violet-300 underline underline-offset-4">
        Back to the dashboard
      </Link>
    </section>
  );
}
