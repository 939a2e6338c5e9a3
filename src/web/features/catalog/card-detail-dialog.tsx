import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lookFromRefs } from '@shared/contracts/catalog-look';
import { GRADING_COMPANY_NAME } from '@shared/contracts/grading';
import { Badge, Dialog, GradeBadge, Money, PhysicalPhotos, Skeleton } from '@web/components/ui';
import { CardAction } from '@web/components/card-action';
import { ApiClientError } from '@web/lib/api';
import { chanceText } from '@web/lib/format';
import { cardPacksQuery, publicCardQuery } from './api';
import { CardSkeleton, CardView } from './card-view';
import { CardComps } from './card-comps';

/** /cards?card=<id> — one card up close, with its value, availability and the packs that give it. */
export default function CardDetailDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const q = useQuery({ ...publicCardQuery(id), enabled: Boolean(id) });
  const data = q.data;
  const look = data ? lookFromRefs(data.card, data.refs) : null;
  const notFound = q.error instanceof ApiClientError && q.error.status === 404;
  return (
    <Dialog
      open={Boolean(id)}
      onOpenChange={(o) => !o && onClose()}
      title={data?.card.name ?? (notFound ? 'Card not found' : 'Card')}
      description={data ? `${data.card.setName} · #${data.card.number}` : undefined}
      className="sm:max-w-3xl"
    >
      {q.isPending ? (
        <div className="flex flex-col gap-6 sm:flex-row" role="status" aria-label="Loading card">
          <CardSkeleton size="lg" />
          <div className="flex-1 space-y-3">
            <Skeleton className="h-6 w-32" />
            <Skeleton className="h-4 w-full" />
          </div>
        </div>
      ) : q.isError ? (
        <p className="text-zinc-300">
          {notFound ? 'This card is not in the catalog any more. Close this and pick another.' : 'We could not load this card. Close this and try again.'}
        </p>
      ) : data && look ? (
        <>
        <div className="flex flex-col items-center gap-6 sm:flex-row sm:items-start">
          <CardView look={look} size="lg" priority />
          {/* The action sits beside the list, not in it: a <dl> may hold only dt/dd groups. */}
          <div className="relative w-full min-w-0 flex-1">
          <CardAction card={data.card} className="absolute top-0 right-0" />
          <dl className="space-y-4">
            <div className="pr-12">
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Market value</dt>
              <dd className="text-3xl font-bold text-white">
                <Money cents={data.card.valueCents} />
              </dd>
            </div>
            {data.card.grading ? (
              <div>
                <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Graded</dt>
                <dd className="mt-1 space-y-1 text-zinc-100">
                  <GradeBadge grading={data.card.grading} size="md" />
                  <p className="text-sm text-zinc-300">
                    {GRADING_COMPANY_NAME[data.card.grading.company]}. Each copy is its own slab with its own certificate, shown in your vault once
                    you pull it.
                  </p>
                </dd>
              </div>
            ) : null}
            {data.card.frontPhotoKey || data.card.backPhotoKey ? (
              <div>
                <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">The physical card</dt>
                <dd className="mt-2">
                  <PhysicalPhotos name={data.card.name} frontPhotoKey={data.card.frontPhotoKey} backPhotoKey={data.card.backPhotoKey} />
                </dd>
              </div>
            ) : null}
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Class</dt>
              <dd className="mt-1 flex items-center gap-2 text-zinc-100">
                <span aria-hidden="true" className="size-3 rounded-full" style={{ background: look.classColour, boxShadow: `0 0 10px ${look.classColour}` }} />
                {look.className}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Availability</dt>
              <dd className="mt-1">
                {data.card.inStock ? <Badge tone="success">In the vault — can be pulled</Badge> : <Badge tone="neutral">All copies pulled for now</Badge>}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">Found in</dt>
              <dd className="mt-1">
                <CardPacks cardId={data.card.id} />
              </dd>
            </div>
            {data.card.description ? (
              <div>
                <dt className="text-xs font-semibold tracking-widest text-zinc-400 uppercase">About</dt>
                <dd className="mt-1 text-zinc-200">{data.card.description}</dd>
              </div>
            ) : null}
          </dl>
          </div>
        </div>
        <CardComps cardId={data.card.id} name={data.card.name} />
        </>
      ) : null}
    </Dialog>
  );
}

function CardPacks({ cardId }: { cardId: string }) {
  const q = useQuery(cardPacksQuery(cardId));
  if (q.isPending) return <Skeleton className="h-4 w-48" />;
  if (q.isError) return <p className="text-sm text-zinc-400">Pack odds could not be loaded. Try again in a moment.</p>;
  if (!q.data.items.length) return <p className="text-sm text-zinc-300">No pack on sale can give this card right now.</p>;
  return (
    <ul className="space-y-1 text-sm text-zinc-200">
      {q.data.items.map((p) => (
        <li key={p.productId}>
          <Link to="/shop/$id" params={{ id: p.productId }} className="text-violet-300 underline underline-offset-2">
            {p.productName}
          </Link>{' '}
          (<Money cents={p.priceCents} />) — {chanceText(p.expectedPerPack)}
        </li>
      ))}
    </ul>
  );
}
