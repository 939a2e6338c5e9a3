import { ClassListScreen } from '@web/features/catalog/class-admin';

export default function Page() {
  return <ClassListScreen />;
}
