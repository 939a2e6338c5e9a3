import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { ACQUIRED_LABEL, formatRate, STATUS_LABEL } from '@shared/contracts/owned-cards';
import { GRADING_COMPANY_NAME } from '@shared/contracts/grading';
import { pullPagePath } from '@shared/pull-path';
import { Badge, Button, CopyableCode, Dialog, GradeBadge, Money, Notice, PhysicalPhotos, ShareButton, SkeletonText, buttonClasses } from '@web/components/ui';
import { ownedCardQuery } from './api';
import { CollectionCard } from './card-renderer';
import { STATUS_TONE } from './format';
import { formatDateTime } from '@web/lib/format';

/** What the page adds to the dialog from other features (features do not import each other). */
export interface OwnedCardExtras {
  /** More actions on a copy in the vault, beside "Sell back" (e.g. shipping). `done` closes the dialog. */
  actions?: (copy: { id: string; name: string }, done: () => void) => ReactNode;
  /** What a copy listed on the market offers instead of shipping and selling back (its price, edit, delist). */
  listedActions?: (copy: { id: string; name: string }, done: () => void) => ReactNode;
  /** The card's price history. */
  chart?: (card: { id: string; name: string }) => ReactNode;
}

/** One owned card: the card large, when and how it was acquired, its proof, what to do with it. */
export function OwnedCardDialog({
  ownedCardId,
  onOpenChange,
  onSell,
  extras,
}: {
  ownedCardId: string | null;
  onOpenChange: (open: boolean) => void;
  onSell: (ownedCardId: string) => void;
  extras?: OwnedCardExtras | undefined;
}) {
  const q = useQuery({ ...ownedCardQuery(ownedCardId ?? ''), enabled: ownedCardId !== null });
  const d = q.data;
  const o = d?.ownedCard;
  return (
    <Dialog
      open={ownedCardId !== null}
      onOpenChange={onOpenChange}
      title={o ? o.card.name : 'Card'}
      className="max-w-3xl lg:max-w-4xl"
      footer={
        o?.status === 'in_vault' ? (
          <div className="flex flex-wrap justify-end gap-2">
            {extras?.actions?.({ id: o.id, name: o.card.name }, () => onOpenChange(false))}
            <Button onClick={() => onSell(o.id)}>
              Sell back for <Money cents={o.buybackCents} />
            </Button>
          </div>
        ) : o?.status === 'listed' && extras?.listedActions ? (
          <div className="w-full">{extras.listedActions({ id: o.id, name: o.card.name }, () => onOpenChange(false))}</div>
        ) : undefined
      }
    >
      {q.isPending ? (
        <SkeletonText lines={5} label="Loading the card" />
      ) : q.isError ? (
        <Notice tone="danger" title="We could not load this card">
          {q.error.message} Close this and refresh your vault.
        </Notice>
      ) : d && o ? (
        <div className="grid grid-cols-[minmax(0,1fr)] gap-6 sm:grid-cols-[minmax(0,16rem)_minmax(0,1fr)]">
          <div className="mx-auto w-56 sm:w-full">
            <CollectionCard card={o.card} refs={d.refs} size="md" />
          </div>
          <div className="space-y-4 text-sm">
            <div className="flex flex-wrap gap-2">
              <Badge tone={STATUS_TONE[o.status]}>{STATUS_LABEL[o.status]}</Badge>
              <Badge tone="violet">{o.className}</Badge>
              {o.card.grading ? <GradeBadge grading={o.card.grading} /> : null}
            </div>
            <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 break-words">
              <dt className="text-zinc-400">Set</dt>
              <dd className="text-zinc-100">
                {o.card.setName} #{o.card.number}
              </dd>
              {o.card.grading ? (
                <>
                  <dt className="text-zinc-400">Graded</dt>
                  <dd className="text-zinc-100">
                    {GRADING_COMPANY_NAME[o.card.grading.company]}, grade {o.card.grading.grade}
                    {o.card.grading.certNumber ? (
                      <>
                        , certificate <span className="font-mono">{o.card.grading.certNumber}</span> (your slab)
                      </>
                    ) : (
                      ', certificate not on record yet'
                    )}
                  </dd>
                </>
              ) : null}
              <dt className="text-zinc-400">Acquired</dt>
              <dd className="text-zinc-100">
                {ACQUIRED_LABEL[o.acquiredVia]}, {formatDateTime(o.acquiredAt)}
              </dd>
              <dt className="text-zinc-400">Value then</dt>
              <dd className="text-zinc-100">
                <Money cents={o.acquiredValueCents} />
              </dd>
              <dt className="text-zinc-400">Market value now</dt>
              <dd className="font-semibold text-white">
                <Money cents={o.valueCents} />
              </dd>
              {o.status === 'in_vault' ? (
                <>
                  <dt className="text-zinc-400">Buyback</dt>
                  <dd className="text-emerald-300">
                    <Money cents={o.buybackCents} /> ({formatRate(o.rateBp)})
                  </dd>
                </>
              ) : null}
              {d.buyback ? (
                <>
                  <dt className="text-zinc-400">Sold back</dt>
                  <dd className="text-zinc-100">
                    <Money cents={d.buyback.amountCents} /> on {formatDateTime(d.buyback.createdAt)} ({formatRate(d.buyback.rateBp)} of{' '}
                    <Money cents={d.buyback.marketValueCents} />)
                  </dd>
                </>
              ) : null}
            </dl>
            {d.opening ? (
              <div className="rounded-xl border border-white/10 bg-white/[0.03] p-3">
                <p className="font-medium text-white">
                  Pulled from {d.opening.productName}
                  {d.opening.slot !== null ? `, card ${d.opening.slot + 1}` : ''}
                </p>
                {/* Hex has no word breaks: each value on its own line, cut with an ellipsis, copied whole. */}
                <dl className="mt-2 space-y-1.5 text-xs">
                  <div>
                    <dt className="text-zinc-400">Server seed hash</dt>
                    <dd>
                      <CopyableCode label="Server seed hash" truncate>
                        {d.opening.serverSeedHash}
                      </CopyableCode>
                    </dd>
                  </div>
                  <div>
                    <dt className="text-zinc-400">Client seed</dt>
                    <dd>
                      <CopyableCode label="Client seed" truncate>
                        {d.opening.clientSeed}
                      </CopyableCode>
                    </dd>
                  </div>
                  <div className="flex gap-2">
                    <dt className="text-zinc-400">Nonce</dt>
                    <dd className="font-mono text-zinc-100">{d.opening.nonce}</dd>
                  </div>
                </dl>
                <Link
                  to="/fairness"
                  search={{ opening: d.opening.id }}
                  className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-3' })}
                >
                  <ShieldCheck aria-hidden="true" className="size-4" />
                  Verify this opening
                </Link>
                {/* Issue 41: watch the pack's reveal again (the shop's replay page). */}
                <Link
                  to="/open-pack"
                  search={{ opening: d.opening.id }}
                  className={buttonClasses({ variant: 'secondary', size: 'sm', className: 'mt-3 ml-2' })}
                >
                  Replay the opening
                </Link>
                <ShareButton
                  path={pullPagePath(o.id)}
                  title={`${o.card.name} pulled from ${d.opening.productName}`}
                  accessibleLabel="Share this pull"
                  className="mt-3 ml-2"
                />
              </div>
            ) : null}
            <PhysicalPhotos name={o.card.name} frontPhotoKey={o.frontPhotoKey} backPhotoKey={o.backPhotoKey} />
            {o.description ? <p className="text-zinc-300">{o.description}</p> : null}
          </div>
          {extras?.chart ? (
            <section aria-labelledby="owned-price-history" className="min-w-0 sm:col-span-2">
              <h3 id="owned-price-history" className="mb-2 text-xs font-semibold tracking-widest text-zinc-400 uppercase">
                Price history
              </h3>
              {extras.chart({ id: o.card.id, name: o.card.name })}
            </section>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
