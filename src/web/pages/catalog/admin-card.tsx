import { useParams } from '@tanstack/react-router';
import { CardDetailScreen } from '@web/features/catalog/card-admin';

export default function Page() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <CardDetailScreen id={id ?? 'new'} />;
}
