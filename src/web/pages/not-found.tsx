import { Link } from '@tanstack/react-router';

export function NotFoundPage() {
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <p className="text-sm font-semibold uppercase tracking-widest text-violet-300">404</p>
      <h1 id="page-title" className="text-3xl font-bold">
        This page is not in the vault
      </h1>
      <p className="text-zinc-300">The address may be mistyped, or the page has moved.</p>
      <p>
        <Link to="/" className="text-violet-300 underline underline-offset-4">
          Go to the front page
        </Link>{' '}
        or{' '}
        <Link to="/shop" className="text-violet-300 underline underline-offset-4">
          browse the shop
        </Link>
        .
      </p>
    </section>
  );
}
export default NotFoundPage;
