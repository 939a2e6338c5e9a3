import { useParams } from '@tanstack/react-router';
import { ArchitectDetailScreen } from '@web/features/catalog/architect-admin';

export default function Page() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <ArchitectDetailScreen id={id ?? 'new'} />;
}
