import { Link } from '@tanstack/react-router';
import { Construction } from 'lucide-react';
import { buttonClasses, cn } from '@web/components/ui';
import { useRouteDef } from '@web/hooks/use-route-def';

/** Honest placeholder for a page whose feature has not shipped yet: nothing here pretends to work. */
export default function ComingSoonPage() {
  const def = useRouteDef();
  const area = def?.area ?? 'site';
  const back =
    area === 'admin'
      ? { to: '/admin' as const, label: 'Back to the dashboard' }
      : area === 'profile'
        ? { to: '/profile/account' as const, label: 'Go to your account' }
        : { to: '/' as const, label: 'Go to the front page' };
  const compact = area === 'auth';
  return (
    <section aria-labelledby="page-title" className={cn('space-y-6', !compact && 'py-4')}>
      <h1 id="page-title" className="text-2xl font-bold tracking-tight text-white sm:text-3xl">
        {def?.title ?? 'Coming soon'}
      </h1>
      <div
        role="status"
        className={cn(
          'flex flex-col items-start gap-4 rounded-2xl border border-dashed border-violet-400/30 bg-violet-500/[0.06] sm:flex-row',
          compact ? 'p-4' : 'p-6 sm:p-8',
        )}
      >
        <span aria-hidden="true" className="rounded-xl bg-violet-500/15 p-3 text-violet-300">
          <Construction className="size-6" />
        </span>
        <div className="space-y-1.5">
          <p className="font-semibold text-white">Not available yet</p>
          <p className="max-w-prose text-sm text-zinc-300">
            This part of the shop is still being built, so there is nothing to do here today. Nothing on this page
            has been charged, changed or saved.
          </p>
        </div>
      </div>
      <Link to={back.to} className={buttonClasses({ variant: 'secondary' })}>
        {back.label}
      </Link>
    </section>
  );
}
