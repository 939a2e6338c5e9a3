import { TextureListScreen } from '@web/features/catalog/texture-admin';

export default function Page() {
  return <TextureListScreen />;
}
