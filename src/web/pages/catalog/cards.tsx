import { PublicCatalog } from '@web/features/catalog/public-catalog';

export default function CardsPage() {
  return <PublicCatalog />;
}
