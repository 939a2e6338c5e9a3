import type { ReferralOffer, ReferralRewardKind, ReferralStatus } from '@shared/contracts/referrals';
import { bpsToPercentText, formatMoney } from '@shared/money';
import { plural } from '@web/lib/format';

/** Words for what the referral programme shows, shared by the user's and the admin's screens. */

export const STATUS_LABEL: Record<ReferralStatus, string> = {
  pending: 'Pending',
  qualified: 'Qualified',
  rejected: 'Rejected',
  voided: 'Voided',
  reversed: 'Reversed',
};

/** What each status means, for the user (read with the badge, not only its colour). */
export const STATUS_HELP: Record<ReferralStatus, string> = {
  pending: 'Signed up; waiting for their deposits to reach the qualifying amount.',
  qualified: 'Qualified: the rewards were paid.',
  rejected: 'Not eligible (for example the same person or payment card).',
  voided: 'Stopped by our team.',
  reversed: 'The qualifying deposit was refunded or disputed, so the rewards were taken back.',
};

export const REWARD_KIND_LABEL: Record<ReferralRewardKind, string> = {
  referrer_bonus: 'Bonus for inviting',
  referee_bonus: 'Welcome bonus',
  purchase_share: 'Share of a purchase',
  clawback: 'Taken back',
};

/** A friend's name, or "a deleted account" once they deleted it (the API sends null then). */
export function friendName(username: string | null, { capital = false } = {}): string {
  if (username !== null) return username;
  return capital ? 'A deleted account' : 'a deleted account';
}

/** 250 basis points → "2.5%". */
export function bpsToPercent(bps: number): string {
  return `${bpsToPercentText(bps)}%`;
}

const money = (cents: number, currency: string) => formatMoney(cents, currency);

/** The headline: "You both get $5.00 when your deposits reach $20.00." (as the invited friend reads it). */
export function offerHeadline(o: ReferralOffer): string {
  const q = money(o.qualifyingDepositCents, o.currency);
  if (o.referrerRewardCents === o.refereeRewardCents) {
    return `You both get ${money(o.refereeRewardCents, o.currency)} when your deposits reach ${q}.`;
  }
  return `You get ${money(o.refereeRewardCents, o.currency)} and your friend gets ${money(o.referrerRewardCents, o.currency)} when your deposits reach ${q}.`;
}

/** The same offer as the inviter reads it. */
export function offerForInviter(o: ReferralOffer): string {
  return `When a friend's deposits reach ${money(o.qualifyingDepositCents, o.currency)}, you get ${money(o.referrerRewardCents, o.currency)} and they get ${money(o.refereeRewardCents, o.currency)}.`;
}

/** The share, in words, or null when there is none. */
export function shareText(o: ReferralOffer, who: 'inviter' | 'you'): string | null {
  if (o.shareBps <= 0 || o.shareDays <= 0 || o.shareCapCents <= 0) return null;
  const subject = who === 'inviter' ? 'Your friend also earns' : 'You also earn';
  const friend = who === 'inviter' ? 'your pack purchases' : "your friend's pack purchases";
  return `${subject} ${bpsToPercent(o.shareBps)} of ${friend} for ${plural(o.shareDays, 'day')} after that, up to ${money(o.shareCapCents, o.currency)} in all. It comes from us, not from ${who === 'inviter' ? 'you' : 'them'}.`;
}

/** The programme's terms, one plain sentence each (the /profile/referral "Terms" section). */
export function offerTerms(o: ReferralOffer): string[] {
  const q = money(o.qualifyingDepositCents, o.currency);
  const terms = [
    `A friend qualifies when their deposits first add up to ${q} or more.`,
    `Then you get ${money(o.referrerRewardCents, o.currency)} and your friend gets ${money(o.refereeRewardCents, o.currency)}, as credit on your balances, paid once.`,
  ];
  const share = shareText(o, 'you');
  if (share) terms.push(share);
  terms.push(
    'Each account can have only one referrer, and a code can be added only before the account’s first deposit.',
    'Referring yourself does not count: the same account, the same email address (dots or +tags aside), or the same payment card or customer.',
    'If the qualifying deposit is refunded or disputed, the rewards are taken back from both balances (never below zero).',
  );
  return terms;
}
