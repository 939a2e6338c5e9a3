import { Link } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { useSession } from '@web/features/auth/session';
import { ADMIN_NAV } from '@web/layouts/admin-layout';

/** The back office's front door: every screen, grouped as in the side navigation. */
export default function AdminDashboardPage() {
  const { data: me } = useSession();
  const isOwner = me?.user.role === 'owner';
  return (
    <>
      <PageHeader
        eyebrow="Back office"
        title="Dashboard"
        description="Everything that runs the shop, in one place. Changes you make here are written to the audit log."
      />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {ADMIN_NAV.filter((g) => g.group !== 'Overview' || g.items.length > 1).map(({ group, items }) => (
          <section
            key={group}
            aria-labelledby={`dash-${group}`}
            className="rounded-2xl border border-white/10 bg-surface/80 p-5"
          >
            <h2 id={`dash-${group}`} className="text-sm font-semibold tracking-widest text-zinc-400 uppercase">
              {group}
            </h2>
            <ul className="mt-3 space-y-1">
              {items
                .filter((d) => d.path !== '/admin' && (d.access !== 'owner' || isOwner))
                .map((d) => (
                  <li key={d.id}>
                    <Link
                      to={d.path}
                      className="flex items-center justify-between rounded-lg px-2 py-1.5 text-zinc-200 hover:bg-white/5 hover:text-white"
                    >
                      {d.title}
                      <span aria-hidden="true" className="text-zinc-500">
                        →
                      </span>
                    </Link>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
