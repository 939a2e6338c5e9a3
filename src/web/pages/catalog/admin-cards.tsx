import { CardListScreen } from '@web/features/catalog/card-admin';

export default function Page() {
  return <CardListScreen />;
}
