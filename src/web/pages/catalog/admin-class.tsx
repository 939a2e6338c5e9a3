import { useParams } from '@tanstack/react-router';
import { ClassDetailScreen } from '@web/features/catalog/class-admin';

export default function Page() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <ClassDetailScreen id={id ?? 'new'} />;
}
