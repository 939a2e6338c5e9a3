import { useParams } from '@tanstack/react-router';
import { CardDetailScreen } from '@web/features/catalog/card-admin';

export default function Page() {
  const { id } = useParams({ from: '/admin/admin/cards/$id' });
  return <CardDetailScreen id={id ?? 'new'} />;
}
