import { ArchitectListScreen } from '@web/features/catalog/architect-admin';

export default function Page() {
  return <ArchitectListScreen />;
}
