import { PageHeader } from '@web/components/ui';
import { SettingsScreen } from '@web/features/settings/settings-screen';

/** /admin/settings */
export default function AdminSettingsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Overview"
        title="Settings"
        description="What the business tunes without a deploy. Each section saves on its own; every change is audited and reaches every server at once."
      />
      <SettingsScreen />
    </>
  );
}
