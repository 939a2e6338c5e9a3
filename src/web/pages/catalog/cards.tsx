import { PublicCatalog } from '@web/features/catalog/public-catalog';

export { prefetchPublicCatalog as prefetch } from '@web/features/catalog/public-catalog';
/** The grid of cards is the page: draw it with the first paint when its data is already here. */
export const firstPaintWithData = true;

export default function CardsPage() {
  return <PublicCatalog />;
}
