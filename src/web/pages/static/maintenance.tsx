import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { Wrench } from 'lucide-react';
import { buttonClasses, Notice } from '@web/components/ui';
import { useSiteConfig } from '@web/hooks/use-site-config';
import { useRealtimeEvent } from '@web/lib/realtime';

export default function MaintenancePage() {
  const { siteName } = useSiteConfig();
  const [back, setBack] = useState(false);
  // The server announces the end of maintenance on the public stream.
  useRealtimeEvent<{ enabled?: boolean }>('maintenance.changed', (data) => setBack(data?.enabled === false));
  return (
    <section aria-labelledby="page-title" className="mx-auto max-w-xl space-y-6 py-12 text-center">
      <span aria-hidden="true" className="inline-flex rounded-2xl bg-violet-500/15 p-4 text-violet-300">
        <Wrench className="size-8" />
      </span>
      <h1 id="page-title" className="text-3xl font-bold tracking-tight text-white">
        Down for maintenance
      </h1>
      <p className="text-lg text-zinc-300">
        {siteName} is being updated right now. We will be back shortly.
      </p>
      <p className="text-zinc-400">
        Your cards, your balance and any shipments in progress are safe — nothing changes while the shop is closed.
      </p>
      {back ? (
        <Notice tone="success" title="We are back" className="text-left">
          Maintenance is over.
        </Notice>
      ) : null}
      <div className="flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonClasses()}>
          {back ? 'Go to the shop' : 'Try again'}
        </Link>
        <Link to="/about" className={buttonClasses({ variant: 'secondary' })}>
          About {siteName}
        </Link>
      </div>
    </section>
  );
}
