import { Link } from '@tanstack/react-router';
import { buttonClasses } from '@web/components/ui/button';

export function NotFoundPage() {
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-xl space-y-5 py-16 text-center">
      <div className="bg-gradient-to-r from-violet-300 to-fuchsia-300 bg-clip-text text-6xl font-black text-transparent">
        404
      </div>
      <h1 id="page-title" className="text-3xl font-bold text-white">
        This page is not in the vault
      </h1>
      <p className="text-zinc-300">The address may be mistyped, or the page has moved.</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses()}>
          Go to the front page
        </Link>
        <Link to="/shop" className={buttonClasses({ variant: 'secondary' })}>
          Browse the shop
        </Link>
      </div>
    </section>
  );
}
export default NotFoundPage;
