import { PageHeader } from '@web/components/ui';
import { AdminDropList, NewDropButton } from '@web/features/drops/admin-drop-list';

/** /admin/daily */
export default function AdminDailyPage() {
  return (
    <>
      <PageHeader
        eyebrow="Engagement"
        title="Daily drops"
        description="Free raffles for cards from stock, drawn by commit–reveal. Prizes leave stock when a drop is scheduled and come back if it is cancelled."
        actions={<NewDropButton />}
      />
      <AdminDropList />
    </>
  );
}
