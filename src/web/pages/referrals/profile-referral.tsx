import { PageHeader } from '@web/components/ui';
import { MyReferralsScreen } from '@web/features/referrals/my-referrals';

/** /profile/referral */
export default function ProfileReferralPage() {
  return (
    <>
      <PageHeader
        eyebrow="Your profile"
        title="Referrals"
        description="Invite friends with your link. When their deposits reach the qualifying amount, you both get credit."
      />
      <MyReferralsScreen />
    </>
  );
}
