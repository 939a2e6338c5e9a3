import { useParams } from '@tanstack/react-router';
import { useSession } from '@web/features/auth/session';
import { InviteScreen } from '@web/features/referrals/invite-screen';

/** /invite/$referralCode: who invited you, the offer, and sign-up. */
export default function InvitePage() {
  const { referralCode } = useParams({ from: '/chrome/site/invite/$referralCode' });
  const session = useSession();
  return <InviteScreen key={referralCode} code={referralCode ?? ''} signedIn={Boolean(session.data)} />;
}
