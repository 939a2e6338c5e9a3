import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { lookFromRefs, type CardLook } from '@shared/contracts/catalog-look';
import { isPullId, pullPagePath } from '@shared/pull-path';
import { Badge, buttonClasses, GradeBadge, Money, Notice, PhysicalPhotos, ShareButton, Skeleton, SkeletonText } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';
import { formatDateTime, timeAgo } from '@web/lib/format';
import { sharedPullQuery } from './api';

/** The page of one pull, for anyone: the card, who pulled it from which pack and when, and its proof. */
export function SharedPullView({ id, renderCard }: { id: string; renderCard: (look: CardLook) => ReactNode }) {
  const valid = isPullId(id);
  const q = useQuery(sharedPullQuery(id));

  if (!valid || (q.isError && q.error instanceof ApiClientError && q.error.status === 404)) return <PullNotFound />;
  if (q.isError) {
    return (
      <section aria-labelledby="pull-title" className="space-y-4">
        <h1 id="pull-title" className="text-3xl font-bold text-white">
          Pull
        </h1>
        <Notice tone="danger" title="This pull could not be loaded">
          Check your connection and reload the page.
        </Notice>
      </section>
    );
  }
  if (q.isPending) {
    return (
      <section aria-busy="true" aria-labelledby="pull-title" className="grid gap-8 md:grid-cols-[minmax(0,20rem)_1fr]">
        <Skeleton className="mx-auto aspect-[5/7] w-64 rounded-xl md:w-full" />
        <div className="space-y-4">
          <h1 id="pull-title" className="text-3xl font-bold text-white">
            Loading the pull…
          </h1>
          <SkeletonText lines={5} label="Loading the pull" />
        </div>
      </section>
    );
  }

  const { pull, proof, refs } = q.data;
  const look = lookFromRefs(pull.card, refs);
  if (!look.className) {
    look.className = pull.card.className;
    look.classColour = pull.card.classColour;
  }
  // The value the card had when it was pulled, which is what the opening gave.
  look.valueCents = pull.valueCents;
  return (
    <article aria-labelledby="pull-title" className="grid gap-8 md:grid-cols-[minmax(0,20rem)_1fr]" data-testid="shared-pull">
      <div className="mx-auto w-64 md:w-full">{renderCard(look)}</div>
      <div className="space-y-6">
        <header className="space-y-2">
          <p className="text-xs font-semibold tracking-widest text-fuchsia-300 uppercase">A pull</p>
          <h1 id="pull-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            {pull.username} pulled {pull.card.name}
          </h1>
          <p className="text-lg text-zinc-300">
            Worth <Money cents={pull.valueCents} className="font-semibold text-gold-300" /> when it was pulled from{' '}
            <Link to="/shop/$id" params={{ id: pull.productId }} className="font-medium text-white underline underline-offset-4">
              {pull.productName}
            </Link>
            .
          </p>
        </header>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-zinc-400">Card</dt>
          <dd className="text-zinc-100">
            {pull.card.name} · {pull.card.setName} #{pull.card.number}
          </dd>
          <dt className="text-zinc-400">Class</dt>
          <dd>
            <Badge tone="violet">{pull.card.className}</Badge>
          </dd>
          {pull.card.slab ? (
            <>
              <dt className="text-zinc-400">Slab</dt>
              <dd className="space-y-2 text-zinc-100">
                <GradeBadge grading={pull.card.slab.grading} />
                {pull.card.slab.grading.certNumber ? (
                  <p>
                    Certificate <span className="font-mono">{pull.card.slab.grading.certNumber}</span>
                  </p>
                ) : null}
                {pull.card.slab.frontPhotoKey || pull.card.slab.backPhotoKey ? (
                  <PhysicalPhotos name={pull.card.name} frontPhotoKey={pull.card.slab.frontPhotoKey} backPhotoKey={pull.card.slab.backPhotoKey} />
                ) : null}
              </dd>
            </>
          ) : null}
          <dt className="text-zinc-400">Pack</dt>
          <dd className="text-zinc-100">{pull.productName}</dd>
          <dt className="text-zinc-400">Pulled by</dt>
          <dd className="font-medium text-zinc-100">{pull.username}</dd>
          <dt className="text-zinc-400">When</dt>
          <dd className="text-zinc-100">
            <time dateTime={pull.createdAt}>{formatDateTime(pull.createdAt)}</time>{' '}
            <span className="text-zinc-400">({timeAgo(pull.createdAt)})</span>
          </dd>
        </dl>
        <div className="flex flex-wrap gap-3">
          <ShareButton
            path={pullPagePath(pull.ownedCardId)}
            title={`${pull.card.name} pulled from ${pull.productName}`}
            text={`${pull.username} pulled ${pull.card.name} from ${pull.productName}.`}
            variant="primary"
            size="md"
          />
          <Link to="/shop/$id" params={{ id: pull.productId }} className={buttonClasses({ variant: 'secondary' })}>
            Open {pull.productName}
          </Link>
        </div>
        <section aria-labelledby="proof-title" className="space-y-3 rounded-2xl border border-emerald-400/20 bg-emerald-500/[0.05] p-4 text-sm">
          <h2 id="proof-title" className="flex items-center gap-2 font-semibold text-white">
            <ShieldCheck aria-hidden="true" className="size-5 text-emerald-300" /> Provably fair
          </h2>
          <p className="text-zinc-300">
            Card {proof.slot + 1} of an opening drawn from a seed committed before it was opened (nonce {proof.nonce}).{' '}
            {proof.seedRevealed
              ? 'The seed has since been revealed, so the draw can be recomputed.'
              : 'The seed is still secret; once its owner rotates it, the draw can be recomputed.'}
          </p>
          <dl className="grid gap-1 text-xs">
            <dt className="text-zinc-400">Server seed hash (the commitment)</dt>
            <dd className="font-mono break-all text-zinc-200">{proof.serverSeedHash}</dd>
            <dt className="text-zinc-400">Pool hash</dt>
            <dd className="font-mono break-all text-zinc-200">
              <a href={`/api/fairness/pools/${proof.poolHash}`} className="underline underline-offset-4">
                {proof.poolHash}
              </a>
            </dd>
            {proof.revisionHash ? (
              <>
                <dt className="text-zinc-400">Odds revision (published before the opening)</dt>
                <dd className="font-mono break-all text-zinc-200">
                  <a href={`/api/fairness/revisions/${proof.revisionHash}`} className="underline underline-offset-4">
                    {proof.revisionHash}
                  </a>
                </dd>
              </>
            ) : null}
          </dl>
          <div className="flex flex-wrap gap-3">
            <Link to="/fairness" search={{ opening: proof.openingId }} className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
              <ShieldCheck aria-hidden="true" className="size-4" /> Verify this opening
            </Link>
            <Link to="/fairness" className="self-center text-zinc-300 underline underline-offset-4">
              How the draw works
            </Link>
          </div>
        </section>
      </div>
    </article>
  );
}

function PullNotFound() {
  return (
    <section aria-labelledby="pull-title" className="mx-auto max-w-xl space-y-5 py-16 text-center">
      <h1 id="pull-title" className="text-3xl font-bold text-white">
        This pull is not in the vault
      </h1>
      <p className="text-zinc-300">The link may be mistyped or cut short. The best pulls are all on the top pulls page.</p>
      <Link to="/top-pulls" className={buttonClasses()}>
        See the top pulls
      </Link>
    </section>
  );
}
