/** HTML + text bodies for every mail the app sends; the HTML frame is a React Email component (mail-layout.tsx). */
import { renderMailHtml } from './mail-layout.tsx';

export type MailKind =
  | 'verify-email'
  | 'reset-password'
  | 'existing-account'
  | 'change-email-confirmation'
  | 'two-factor-reset'
  | 'account-banned'
  | 'drop-won'
  | 'shipment-status';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  links: string[];
}

/** The site as mail shows it: a name, or the settings' name and support address. */
export type MailSite = string | { siteName: string; supportEmail: string };

/**
 * A mail in the shared frame (mail-layout.tsx), as HTML and as plain text with the same words.
 * `unsubscribe` (a notification kind's one-click link) adds a footer line in both bodies;
 * security mail never has one.
 */
export function layout(
  siteIn: MailSite,
  title: string,
  paragraphs: string[],
  action?: { label: string; url: string },
  unsubscribe?: { label: string; url: string },
) {
  const siteName = typeof siteIn === 'string' ? siteIn : siteIn.siteName;
  const support = typeof siteIn === 'string' ? null : siteIn.supportEmail;
  const html = renderMailHtml({ siteName, supportEmail: support, title, paragraphs, action, unsubscribe });
  const text = [
    siteName,
    '',
    title,
    '',
    ...paragraphs,
    ...(action ? ['', `${action.label}: ${action.url}`] : []),
    '',
    `You received this because of activity on your ${siteName} account.${support ? ` Questions? Write to ${support}.` : ''}`,
    ...(unsubscribe ? [`${unsubscribe.label}: ${unsubscribe.url}`] : []),
  ].join('\n');
  return { html, text };
}

export function renderMail(
  site: MailSite,
  kind: MailKind,
  data: {
    url?: string;
    username?: string;
    newEmail?: string;
    reason?: string;
    until?: string | null;
    /** shipment-status: the reference (SH-1001), the new status in words, and its tracking link if any. */
    reference?: string;
    status?: string;
    tracking?: string | null;
    /** drop-won: the drop and the prize. */
    dropTitle?: string;
    cardName?: string;
  },
): RenderedMail {
  const siteName = typeof site === 'string' ? site : site.siteName;
  const hello = data.username ? `Hi ${data.username},` : 'Hi,';
  const url = data.url ?? '';
  let subject: string;
  let title: string;
  let paragraphs: string[];
  let action: { label: string; url: string } | undefined;
  switch (kind) {
    case 'verify-email':
      subject = `Confirm your email for ${siteName}`;
      title = 'Confirm your email address';
      paragraphs = [hello, 'Confirm this address to finish setting up your account. The link works for 24 hours and signs you in.'];
      action = { label: 'Confirm my email', url };
      break;
    case 'reset-password':
      subject = `Reset your ${siteName} password`;
      title = 'Reset your password';
      paragraphs = [
        hello,
        'Someone asked to reset the password of this account. If it was you, choose a new password with the link below; it works for one hour. Resetting signs you out everywhere.',
        'If it was not you, ignore this mail: your password stays the same.',
      ];
      action = { label: 'Choose a new password', url };
      break;
    case 'existing-account':
      subject = `Someone tried to sign up to ${siteName} with your email`;
      title = 'You already have an account';
      paragraphs = [
        hello,
        'Someone tried to create an account with this email address, which already has one. If it was you, sign in instead, or reset your password if you forgot it.',
        'If it was not you, you can ignore this mail.',
      ];
      action = { label: 'Reset my password', url };
      break;
    case 'change-email-confirmation':
      subject = `Confirm the email change on ${siteName}`;
      title = 'Confirm your new email address';
      paragraphs = [
        hello,
        `You asked to change the email of your account to ${data.newEmail ?? 'a new address'}. Approve the change with the link below; we then send a confirmation link to the new address.`,
        'If it was not you, ignore this mail and change your password.',
      ];
      action = { label: 'Approve the change', url };
      break;
    case 'two-factor-reset':
      subject = `Two-factor authentication was reset on ${siteName}`;
      title = 'Your two-factor authentication was reset';
      paragraphs = [
        hello,
        'An administrator turned off two-factor authentication on your account at your request. Sign in and set it up again from Privacy & security.',
      ];
      action = url ? { label: 'Sign in', url } : undefined;
      break;
    case 'account-banned':
      subject = `Your ${siteName} account is suspended`;
      title = 'Your account is suspended';
      paragraphs = [
        hello,
        `Reason: ${data.reason ?? 'not given'}.`,
        data.until ? `The suspension ends on ${data.until}.` : 'The suspension has no end date. Reply to this mail to appeal.',
      ];
      break;
    case 'drop-won':
      subject = `You won the ${siteName} drop "${data.dropTitle ?? 'daily drop'}"`;
      title = 'You won a daily drop';
      paragraphs = [
        hello,
        `Your entry was drawn in "${data.dropTitle ?? 'the daily drop'}". ${data.cardName ?? 'The prize card'} is already in your vault: there is nothing to claim.`,
        'The drop page shows the proof of the draw, so you (and anyone) can check it.',
      ];
      action = url ? { label: 'See the drop', url } : undefined;
      break;
    case 'shipment-status':
      subject = `Shipment ${data.reference ?? ''}: ${data.status ?? 'updated'}`;
      title = `Your shipment ${data.reference ?? ''} is ${(data.status ?? 'updated').toLowerCase()}`;
      paragraphs = [
        hello,
        `The status of shipment ${data.reference ?? ''} is now: ${data.status ?? 'updated'}.`,
        ...(data.reason ? [`Note: ${data.reason}`] : []),
        ...(data.tracking ? [`Track it with the carrier: ${data.tracking}`] : []),
      ];
      action = url ? { label: 'See the shipment', url } : undefined;
      break;
  }
  const { html, text } = layout(site, title, paragraphs, action);
  return { subject, text, html, links: action ? [action.url] : [] };
}
