import { createContext, useContext, type ReactNode } from 'react';
import { imageUrl, type CardLook } from '@shared/contracts/catalog-look';
import { cn } from '@web/components/ui';
import { Money } from '@web/components/ui';

export type CardSize = 'xs' | 'sm' | 'md' | 'lg';

/**
 * Draws one card. The shop does not own the card renderer (the catalog does) and features do
 * not import each other, so pages hand the catalog's renderer down through this context.
 */
export type RenderCard = (look: CardLook, opts: { size: CardSize; className?: string; priority?: boolean }) => ReactNode;

/** Only used if a page forgets the provider: art, name and value, so nothing breaks. */
const fallback: RenderCard = (look, { className }) => (
  <div
    className={cn('flex aspect-[5/7] w-full flex-col overflow-hidden rounded-xl border-2 bg-surface-2', className)}
    style={{ borderColor: look.classColour }}
  >
    {look.imageKey ? <img src={imageUrl(look.imageKey, 'thumb')} alt="" className="min-h-0 flex-1 object-cover" /> : <div className="flex-1" />}
    <div className="p-2 text-xs">
      <p className="truncate font-semibold text-white">{look.name}</p>
      <p className="text-zinc-300">
        {look.className} · <Money cents={look.valueCents} />
      </p>
    </div>
  </div>
);

const CardRendererContext = createContext<RenderCard>(fallback);
export const CardRendererProvider = CardRendererContext.Provider;

export function useRenderCard(): RenderCard {
  return useContext(CardRendererContext);
}

const widths: Record<CardSize, string> = {
  xs: 'w-20',
  sm: 'w-32 sm:w-36',
  md: 'w-40 sm:w-48',
  lg: 'w-56 sm:w-64',
};

/** A card at one of the shop's sizes, drawn by whatever renderer the page provided. */
export function ShopCard({ look, size = 'sm', className }: { look: CardLook; size?: CardSize; className?: string }) {
  const render = useRenderCard();
  return <div className={cn(widths[size], 'shrink-0', className)}>{render(look, { size })}</div>;
}
