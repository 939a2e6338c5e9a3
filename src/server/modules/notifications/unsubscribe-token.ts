import { createHmac, timingSafeEqual } from 'node:crypto';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../../shared/contracts/notifications.ts';
import { AppError } from '../../http/errors.ts';

/** How long an unsubscribe link in a mail keeps working. */
export const UNSUBSCRIBE_TOKEN_DAYS = 60;

const key = (secret: string) => createHmac('sha256', secret).update('packvault:unsubscribe:v1').digest();
const sign = (secret: string, payload: string) => createHmac('sha256', key(secret)).update(payload).digest('base64url');

export const invalidLink = () => new AppError(400, 'invalid_link', 'This link is not valid. Change your email settings from your profile instead.');
export const expiredLink = () => new AppError(400, 'link_expired', 'This link has expired. Change your email settings from your profile instead.');

/**
 * A stateless unsubscribe token: base64url("<userId>\n<kind>\n<expiry seconds>") "." HMAC-SHA256
 * of that with a key derived from APP_SECRET. Security mail has no link, so no token names it.
 */
export function createUnsubscribeToken(secret: string, userId: string, kind: NotificationKind, now = Date.now()): string {
  if (kind === 'security') throw new Error('security mail cannot be unsubscribed');
  const exp = Math.floor(now / 1000) + UNSUBSCRIBE_TOKEN_DAYS * 86_400;
  const payload = Buffer.from(`${userId}\n${kind}\n${exp}`).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The user and kind of a genuine token; 400 invalid_link when forged or garbled, link_expired when old. */
export function verifyUnsubscribeToken(secret: string, token: string, now = Date.now()): { userId: string; kind: NotificationKind } {
  const parts = token.split('.');
  if (parts.length !== 2 || !/^[\w-]+$/.test(parts[0]!) || !/^[\w-]+$/.test(parts[1]!)) throw invalidLink();
  const [payload, sig] = parts as [string, string];
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidLink();
  const fields = Buffer.from(payload, 'base64url').toString('utf8').split('\n');
  if (fields.length !== 3) throw invalidLink();
  const [userId, kind, exp] = fields as [string, string, string];
  if (!userId || !(NOTIFICATION_KINDS as readonly string[]).includes(kind) || kind === 'security' || !/^\d+$/.test(exp)) throw invalidLink();
  if (Number(exp) * 1000 < now) throw expiredLink();
  return { userId, kind: kind as NotificationKind };
}
