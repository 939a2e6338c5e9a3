import { useParams } from '@tanstack/react-router';
import { ClassDetailScreen } from '@web/features/catalog/class-admin';

export default function Page() {
  const { id } = useParams({ from: '/admin/admin/class/$id' });
  return <ClassDetailScreen id={id ?? 'new'} />;
}
