import { useRouteDef } from '@web/hooks/use-route-def';

/** Honest placeholder for a page whose feature has not shipped yet. */
export default function ComingSoonPage() {
  const def = useRouteDef();
  return (
    <section aria-labelledby="page-title" className="space-y-4">
      <h1 id="page-title" className="text-2xl font-bold tracking-tight">
        {def?.title ?? 'Coming soon'}
      </h1>
      <div role="status" className="rounded-lg border border-white/10 bg-white/5 p-4 text-sm text-zinc-300">
        This part of the shop is not available yet. We are building it now — check back soon.
      </div>
    </section>
  );
}
