import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { redactText, shownConfigValue } from './redact.ts';

describe('redactText', () => {
  it.each([
    ['http://localhost:3000/api/auth/verify-email?token=eyJhbGciOi.abc.def&callbackURL=%2Fhome', 'eyJhbGciOi'],
    ['http://localhost:3000/api/auth/reset-password/Zx9Qw8Er7Ty6?callbackURL=%2Fupdate-password', 'Zx9Qw8Er7Ty6'],
    ['/reset-password?token=abcdef123456', 'abcdef123456'],
    ['postgres://app:hunter2-secret@db.internal:5432/packvault', 'hunter2-secret'],
    ['smtps://mailer:s3cr3t%21@smtp.example:465', 's3cr3t'],
    ['connect failed: host=db password=pa55word sslmode=require', 'pa55word'],
    ['key sk_live_51HxyzABCDEF0123456789 rejected', '51HxyzABCDEF0123456789'],
    ['whsec_0123456789abcdef is wrong', '0123456789abcdef'],
  ])('hides the secret in %s', (text, secret) => {
    expect(redactText(text)).not.toContain(secret);
  });

  it('keeps what is useful', () => {
    expect(redactText('postgres://app:pw@db.internal:5432/packvault')).toBe('postgres://app:***@db.internal:5432/packvault');
    expect(redactText('GET /api/catalog/cards?page=2 200')).toBe('GET /api/catalog/cards?page=2 200');
    expect(redactText('{"to":"a@b.test","kind":"reset-password"}')).toBe('{"to":"a@b.test","kind":"reset-password"}');
  });
});

describe('shownConfigValue', () => {
  it('never shows a secret, and shows URLs without their password', () => {
    expect(shownConfigValue('APP_SECRET', 'my-app-secret')).not.toContain('my-app-secret');
    expect(shownConfigValue('STRIPE_SECRET_KEY', 'sk_live_abc-def')).toMatch(/^sk_live_…\[redacted\]/);
    expect(shownConfigValue('STRIPE_SECRET_KEY', 'sk_live_abc-def')).not.toContain('abc-def');
    expect(shownConfigValue('DATABASE_URL', 'mysql://root:hunter2@db/x')).toBe('mysql://root:***@db/x');
    expect(shownConfigValue('PORT', 'abc')).toBe('abc');
  });
});

describe('the logger', () => {
  it('redacts link tokens and URL passwords in messages, fields and errors', () => {
    const lines: string[] = [];
    const log = createLogger('debug', {}, (l) => lines.push(l));
    log.info('request', { path: '/api/auth/reset-password/TOKEN-IN-PATH', method: 'GET' });
    log.warn('mail failed', { err: new Error('could not send http://x.test/api/auth/verify-email?token=TOKEN-IN-ERROR') });
    log.error('db down', { url: 'postgres://u:DB-PASSWORD@h/db' });
    const out = lines.join('\n');
    for (const secret of ['TOKEN-IN-PATH', 'TOKEN-IN-ERROR', 'DB-PASSWORD']) expect(out).not.toContain(secret);
    // Still one valid JSON object per line.
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
  });
});
