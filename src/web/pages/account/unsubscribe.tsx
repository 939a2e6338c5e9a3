import { useSearch } from '@tanstack/react-router';
import { PageHeader } from '@web/components/ui';
import { Unsubscribe } from '@web/features/notifications/unsubscribe';

/** The token from ?token=… (the router parses a numeric-looking value as a number). */
export function tokenOf(search: Record<string, unknown>): string | undefined {
  const v = search.token;
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v);
  return s && s.length <= 1000 ? s : undefined;
}

/** /unsubscribe?token=…: public, works without signing in (features/notifications). */
export default function UnsubscribePage() {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  return (
    <div className="mx-auto max-w-xl">
      <PageHeader eyebrow="Email preferences" title="Unsubscribe" />
      <Unsubscribe token={tokenOf(search)} />
    </div>
  );
}
