import { useParams } from '@tanstack/react-router';
import { ArchitectDetailScreen } from '@web/features/catalog/architect-admin';

export default function Page() {
  const { id } = useParams({ from: '/admin/admin/architects/$id' });
  return <ArchitectDetailScreen id={id ?? 'new'} />;
}
