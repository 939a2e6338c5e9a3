import { useParams } from '@tanstack/react-router';
import { TextureDetailScreen } from '@web/features/catalog/texture-admin';

export default function Page() {
  const { id } = useParams({ strict: false }) as { id?: string };
  return <TextureDetailScreen id={id ?? 'new'} />;
}
