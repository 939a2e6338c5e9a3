import { createContext, useContext, type ReactNode } from 'react';

/** The card an action is about: enough to act on it and to name it to a screen reader. */
export interface CardActionTarget {
  id: string;
  name: string;
}

export type RenderCardAction = (card: CardActionTarget) => ReactNode;

const Ctx = createContext<RenderCardAction | null>(null);

/**
 * A control that sits on a card (the wishlist heart) in views of other features: the catalog's
 * tiles and detail dialog draw a <CardAction>, and the page says what goes there, since features
 * do not import each other:
 *   <CardActionProvider value={useWishlistHearts(signedIn)}>…</CardActionProvider>
 * (one function for the whole grid: it should change only when what it draws does).
 */
export const CardActionProvider = Ctx.Provider;

/** Draws the page's action for this card, or nothing when the page gave none. */
export function CardAction({ card, className }: { card: CardActionTarget; className?: string }) {
  const render = useContext(Ctx);
  if (!render) return null;
  return <div className={className}>{render(card)}</div>;
}

const OfferCtx = createContext<RenderCardAction | null>(null);

/**
 * The card dialog's marketplace action (an offer on the card, from the market feature), given by
 * the page the same way as CardActionProvider.
 */
export const CardOfferProvider = OfferCtx.Provider;

/** Draws the page's offer action for this card, or nothing when the page gave none. */
export function CardOffer({ card, className }: { card: CardActionTarget; className?: string }) {
  const render = useContext(OfferCtx);
  if (!render) return null;
  return <div className={className}>{render(card)}</div>;
}
