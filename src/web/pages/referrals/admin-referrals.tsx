import { PageHeader } from '@web/components/ui';
import { AdminReferralList } from '@web/features/referrals/admin-referral-list';
import { ReferralSettingsPanel } from '@web/features/referrals/admin-settings';

/** /admin/referrals */
export default function AdminReferralsPage() {
  return (
    <>
      <PageHeader
        eyebrow="Engagement"
        title="Referrals"
        description="Who invited whom, what it paid, and the programme's settings. Voids and setting changes are audited."
      />
      <div className="space-y-8">
        <AdminReferralList />
        <ReferralSettingsPanel />
      </div>
    </>
  );
}
