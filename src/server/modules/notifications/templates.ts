import { NOTIFICATION_KIND_INFO, type NotificationKind } from '../../../shared/contracts/notifications.ts';
import { formatMoney } from '../../../shared/money.ts';
import { layout, type MailSite, type RenderedMail } from '../mail/templates.ts';
import type { NotifyData } from './service.ts';
import { plural } from '../../../shared/words.ts';

/** What a notification says, in the inbox and in its mail. `link` is an app path (or null). */
export interface RenderedNotification {
  title: string;
  body: string;
  link: string | null;
  /** Extra mail paragraphs after the body (details that do not fit the inbox line). */
  details: string[];
  actionLabel: string;
  subject: string;
}

const SECURITY_TITLES: Record<NotifyData['security']['event'], string> = {
  new_sign_in: 'New sign-in to your account',
  two_factor_enabled: 'Two-factor authentication turned on',
  two_factor_disabled: 'Two-factor authentication turned off',
  password_changed: 'Your password was changed',
  password_reset: 'Your password was reset',
};

/** The in-app text and link of each kind. Pure, so tests and the broadcast path share it. */
export function renderNotification<K extends NotificationKind>(
  site: { siteName: string; currency: string },
  kind: K,
  data: NotifyData[K],
): RenderedNotification {
  const { siteName, currency } = site;
  const d = data as NotifyData[NotificationKind];
  switch (kind) {
    case 'deposit_credited': {
      const x = d as NotifyData['deposit_credited'];
      const amount = formatMoney(x.amountCents, x.currency);
      return { title: 'Deposit credited', body: `${amount} was added to your balance.`, link: '/profile/billing', details: [], actionLabel: 'See your billing', subject: `${amount} was added to your ${siteName} balance` };
    }
    case 'big_pull': {
      const x = d as NotifyData['big_pull'];
      const value = formatMoney(x.valueCents, currency);
      const from = x.productName ? ` from ${x.productName}` : '';
      return { title: 'Big pull!', body: `You pulled ${x.cardName} (${value})${from}.`, link: '/collect', details: ['It is in your vault.'], actionLabel: 'See your vault', subject: `Big pull: ${x.cardName} (${value})` };
    }
    case 'buyback_paid': {
      const x = d as NotifyData['buyback_paid'];
      const amount = formatMoney(x.amountCents, currency);
      const cards = plural(x.cardCount, 'card');
      return { title: 'Buyback paid', body: `${amount} for ${cards} was paid to your balance.`, link: '/profile/history', details: [], actionLabel: 'See your history', subject: `Buyback paid: ${amount}` };
    }
    case 'shipment_status': {
      const x = d as NotifyData['shipment_status'];
      return {
        title: `Shipment ${x.reference}: ${x.statusLabel}`,
        body: `The status of shipment ${x.reference} is now: ${x.statusLabel}.`,
        link: '/profile/shipping',
        details: [...(x.reason ? [`Note: ${x.reason}`] : []), ...(x.tracking ? [`Track it with the carrier: ${x.tracking}`] : [])],
        actionLabel: 'See the shipment',
        subject: `Shipment ${x.reference}: ${x.statusLabel}`,
      };
    }
    case 'drop_won': {
      const x = d as NotifyData['drop_won'];
      return {
        title: 'You won a daily drop',
        body: `Your entry was drawn in "${x.dropTitle}". ${x.cardName} is already in your vault: there is nothing to claim.`,
        link: `/daily-drop/${x.dropId}`,
        details: ['The drop page shows the proof of the draw, so you (and anyone) can check it.'],
        actionLabel: 'See the drop',
        subject: `You won the ${siteName} drop "${x.dropTitle}"`,
      };
    }
    case 'drop_starting': {
      const x = d as NotifyData['drop_starting'];
      return {
        title: 'A daily drop is open',
        body: `"${x.dropTitle}" is open for entries until ${new Date(x.closesAt).toUTCString()}.`,
        link: `/daily-drop/${x.dropId}`,
        details: [],
        actionLabel: 'Enter the drop',
        subject: `Daily drop open: ${x.dropTitle}`,
      };
    }
    case 'referral_qualified': {
      const x = d as NotifyData['referral_qualified'];
      const amount = formatMoney(x.amountCents, x.currency);
      const body =
        x.role === 'referrer'
          ? `${x.friendUsername} qualified: you earned ${amount}.`
          : `Your first deposit qualified: you and ${x.friendUsername} earned a reward. ${amount} was added to your balance.`;
      return { title: 'Referral reward', body, link: '/profile/referral', details: [], actionLabel: 'See your referrals', subject: `You earned a ${siteName} referral reward` };
    }
    case 'wishlist_live': {
      const x = d as NotifyData['wishlist_live'];
      return {
        title: `${x.cardName} is in a pack`,
        body: `${x.cardName}, on your wishlist, can now be pulled from ${x.productName}.`,
        link: `/shop/${x.productId}`,
        details: ['Packs are drawn at random: the pack page shows the odds of each class.'],
        actionLabel: 'See the pack',
        subject: `On your wishlist: ${x.cardName} is in ${x.productName}`,
      };
    }
    case 'market_sold': {
      const x = d as NotifyData['market_sold'];
      const price = formatMoney(x.priceCents, currency);
      const proceeds = formatMoney(x.proceedsCents, currency);
      return {
        title: `${x.cardName} sold`,
        body: `Your listing of ${x.cardName} sold for ${price}: ${proceeds} was added to your balance.`,
        link: '/profile/history',
        details: [`The marketplace fee was ${formatMoney(x.feeCents, currency)}.`],
        actionLabel: 'See your history',
        subject: `Sold on ${siteName}: ${x.cardName} for ${price}`,
      };
    }
    case 'market_listing': {
      const x = d as NotifyData['market_listing'];
      const price = formatMoney(x.priceCents, currency);
      const removed = x.event === 'removed';
      return {
        title: removed ? `${x.cardName}: listing removed` : `${x.cardName}: listing expired`,
        body: removed
          ? `We removed your listing of ${x.cardName} at ${price} from the market${x.reason ? `. The reason: ${x.reason.replace(/[.!?\s]+$/, '')}` : ''}. The card is back in your vault, and any offers on it were closed with their money released.`
          : `Your listing of ${x.cardName} at ${price} ended unsold. The card is back in your vault; you can list it again.`,
        link: '/profile/market',
        details: removed ? ['If you think this is a mistake, reply to this email or contact support.'] : [],
        actionLabel: 'See your listings',
        subject: removed ? `${siteName}: your listing of ${x.cardName} was removed` : `${siteName}: your listing of ${x.cardName} expired`,
      };
    }
    case 'market_offer': {
      const x = d as NotifyData['market_offer'];
      const amount = formatMoney(x.amountCents, currency);
      const T: Record<NotifyData['market_offer']['event'], { title: string; body: string; link: string }> = {
        received: { title: `Offer on ${x.cardName}`, body: `Someone offered ${amount} for ${x.cardName}. The money is held: accept it and the sale happens at once.`, link: '/profile/market?tab=offers-received' },
        accepted: {
          title: `${x.cardName}: offer accepted`,
          body:
            x.proceedsCents !== undefined
              ? `Your ${x.cardName} sold for ${amount}: ${formatMoney(x.proceedsCents, currency)} was added to your balance.`
              : `Your offer of ${amount} for ${x.cardName} was accepted: the card is in your vault.`,
          link: x.proceedsCents !== undefined ? '/profile/history' : '/collect',
        },
        rejected: { title: `${x.cardName}: offer declined`, body: `Your offer of ${amount} for ${x.cardName} was declined. The held money is back in your balance.`, link: '/profile/market?tab=offers-made' },
        countered: { title: `${x.cardName}: counter-offer`, body: `The seller of ${x.cardName} answered your offer with ${amount}. Accept it, or decline to get your held money back.`, link: '/profile/market?tab=offers-received' },
        counter_declined: { title: `${x.cardName}: counter declined`, body: `The buyer declined your counter of ${amount} for ${x.cardName}.`, link: '/profile/market?tab=offers-made' },
        expired: { title: `${x.cardName}: offer expired`, body: `Your offer of ${amount} for ${x.cardName} expired. The held money is back in your balance.`, link: '/profile/market?tab=offers-made' },
        lapsed: { title: `${x.cardName}: offer closed`, body: `The listing of ${x.cardName} ended, so your offer of ${amount} closed. The held money is back in your balance.`, link: '/profile/market?tab=offers-made' },
      };
      const m = T[x.event];
      return { ...m, details: [], actionLabel: 'See your offers', subject: `${siteName}: ${m.title}` };
    }
    case 'market_swap': {
      const x = d as NotifyData['market_swap'];
      const who = x.counterparty ? `@${x.counterparty}` : 'A collector';
      const cards = `${x.cardCount} card${x.cardCount === 1 ? '' : 's'}`;
      const cash = Math.abs(x.cashCents);
      const cashText = cash === 0 ? '' : x.cashCents > 0 === x.toProposer ? ` and ${formatMoney(cash, currency)} from you` : ` and ${formatMoney(cash, currency)} to you`;
      const held = x.toProposer && x.cashCents > 0 ? ' The held money is back in your balance.' : '';
      const T: Record<NotifyData['market_swap']['event'], { title: string; body: string; link: string }> = {
        received: { title: 'Swap proposed', body: `${who} proposed a swap for cards in your trade binder (${cards}${cashText}). Accept it and the cards change hands at once.`, link: '/profile/market?tab=swaps-received' },
        accepted: { title: 'Swap accepted', body: `${who} accepted your swap (${cards}${cashText}): the cards are in your vault.`, link: '/collect' },
        declined: { title: 'Swap declined', body: `${who} declined your swap.${held}`, link: '/profile/market?tab=swaps-made' },
        cancelled: { title: 'Swap withdrawn', body: `${who} withdrew the swap they proposed to you.`, link: '/profile/market?tab=swaps-received' },
        expired: { title: 'Swap expired', body: `Your swap with ${who} expired unanswered.${held}`, link: '/profile/market?tab=swaps-made' },
        stale: { title: 'Swap closed', body: `A card in your swap with ${who} moved (sold, listed, shipped or swapped), so the swap closed.${held}`, link: '/profile/market?tab=swaps-made' },
      };
      const m = T[x.event];
      return { ...m, details: [], actionLabel: 'See your swaps', subject: `${siteName}: ${m.title.toLowerCase()}` };
    }
    case 'security': {
      const x = d as NotifyData['security'];
      const title = SECURITY_TITLES[x.event];
      const where = [x.ip ? `Address: ${x.ip}` : null, x.userAgent ? `Device: ${x.userAgent.slice(0, 200)}` : null].filter((s): s is string => !!s);
      const body =
        x.event === 'new_sign_in'
          ? 'Someone signed in to your account. If it was not you, change your password now.'
          : `${title}. If it was not you, reset your password and contact us.`;
      return { title, body, link: '/profile/privacy-and-security', details: where, actionLabel: 'Review your security', subject: `${siteName}: ${title.toLowerCase()}` };
    }
  }
  throw new Error(`unknown notification kind ${String(kind)}`);
}

/** The outbox's `kind` column for a notification's mail (kept as the older mails named them). */
export function mailKindOf(kind: NotificationKind): string {
  return kind.replace(/_/g, '-');
}

/** The mail (HTML and text) of a notification. `unsubscribeUrl` is required for every kind but security. */
export function renderNotificationMail(
  site: MailSite,
  publicUrl: string,
  kind: NotificationKind,
  n: RenderedNotification,
  username: string | null,
  unsubscribeUrl: string | null,
): RenderedMail {
  const action = n.link ? { label: n.actionLabel, url: `${publicUrl}${n.link}` } : undefined;
  const unsubscribe =
    kind !== 'security' && unsubscribeUrl
      ? { label: `Stop emails about “${NOTIFICATION_KIND_INFO[kind].label.toLowerCase()}”`, url: unsubscribeUrl }
      : undefined;
  const paragraphs = [username ? `Hi ${username},` : 'Hi,', n.body, ...n.details];
  const { html, text } = layout(site, n.title, paragraphs, action, unsubscribe);
  return { subject: n.subject, text, html, links: [...(action ? [action.url] : []), ...(unsubscribe ? [unsubscribe.url] : [])] };
}
