import { useParams } from '@tanstack/react-router';
import { TextureDetailScreen } from '@web/features/catalog/texture-admin';

export default function Page() {
  const { id } = useParams({ from: '/admin/admin/textures/$id' });
  return <TextureDetailScreen id={id ?? 'new'} />;
}
