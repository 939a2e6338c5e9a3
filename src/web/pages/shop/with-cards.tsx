import type { ReactNode } from 'react';
import { renderCard } from '@web/features/catalog/card-view';
import { CardRendererProvider } from '@web/features/shop/card-slot';

/** Hands the catalog's card renderer to the shop's components (features never import each other). */
export function WithCards({ children }: { children: ReactNode }) {
  return <CardRendererProvider value={renderCard}>{children}</CardRendererProvider>;
}
