import { createContext, useContext, type ReactNode } from 'react';
import type { LookRefs, PublicCard } from '@shared/contracts/catalog';
import { lookFromRefs, type CardLook } from '@shared/contracts/catalog-look';
import { cn } from '@web/components/ui';

export type CollectionCardSize = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
/** `priority`: load the images eagerly (the first tiles above the fold hold the page's LCP image). */
export type RenderCollectionCard = (look: CardLook, opts: { size: CollectionCardSize; className?: string; priority?: boolean }) => ReactNode;

/** Until a page provides the catalog's renderer: a plain box with the card's name (never used in the app). */
const fallback: RenderCollectionCard = (look, { className }) => (
  <div role="img" aria-label={look.name} className={cn('flex aspect-[5/7] w-full items-end rounded-xl bg-white/5 p-2 text-xs text-zinc-300 ring-1 ring-white/10', className)}>
    {look.name}
  </div>
);

const Ctx = createContext<RenderCollectionCard>(fallback);

/**
 * Features do not import each other, so the pages hand this feature the catalog's card renderer:
 *   <CollectionCardRenderer value={renderCard}>…</CollectionCardRenderer>
 */
export const CollectionCardRenderer = Ctx.Provider;

export function CollectionCard({
  card,
  refs,
  size = 'sm',
  className,
  priority = false,
}: {
  card: PublicCard;
  refs: LookRefs;
  size?: CollectionCardSize;
  className?: string;
  priority?: boolean;
}) {
  const render = useContext(Ctx);
  return <>{render(lookFromRefs(card, refs), { size, priority, ...(className ? { className } : {}) })}</>;
}
