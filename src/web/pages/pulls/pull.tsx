import { useParams, useSearch } from '@tanstack/react-router';
import { useSession } from '@web/features/auth/session';
import { renderCard } from '@web/features/catalog/card-view';
import { SharedPullView } from '@web/features/pulls/shared-pull';
import { SharedLinkInvite } from '@web/features/referrals/shared-link-invite';

/**
 * /pulls/$id — one pull's public page; the server puts its link-preview tags in the HTML. A link
 * a member shared carries their referral code (`?ref=`): a visitor sees the invitation.
 */
export default function PullPage() {
  const { id } = useParams({ from: '/chrome/site/pulls/$id' });
  const { ref } = useSearch({ strict: false }) as { ref?: unknown };
  const session = useSession();
  // The router reads an all-digit value as a number.
  const code = typeof ref === 'string' || typeof ref === 'number' ? String(ref) : '';
  return (
    <>
      {code && session.data === null ? <SharedLinkInvite code={code} /> : null}
      <SharedPullView id={id} renderCard={(look) => renderCard(look, { size: 'lg' })} />
    </>
  );
}
