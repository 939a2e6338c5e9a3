import { DrizzleQueryError } from 'drizzle-orm/errors';
import fc from 'fast-check';
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
    expect(redactText('postgres://app:pw@db.internal:5432/packvault')).toBe('postgres://***@db.internal:5432/packvault');
    expect(redactText('GET /api/catalog/cards?page=2 200')).toBe('GET /api/catalog/cards?page=2 200');
    expect(redactText('{"to":"a@b.test","kind":"reset-password"}')).toBe('{"to":"a@b.test","kind":"reset-password"}');
  });
});

describe('shownConfigValue', () => {
  it('never shows a secret, and shows URLs without their password', () => {
    expect(shownConfigValue('APP_SECRET', 'my-app-secret')).not.toContain('my-app-secret');
    expect(shownConfigValue('STRIPE_SECRET_KEY', 'sk_live_abc-def')).toMatch(/^sk_live_…\[redacted\]/);
    expect(shownConfigValue('STRIPE_SECRET_KEY', 'sk_live_abc-def')).not.toContain('abc-def');
    expect(shownConfigValue('DATABASE_URL', 'mysql://root:hunter2@db/x')).toBe('mysql://***@db/x');
    expect(shownConfigValue('PORT', 'abc')).toBe('abc');
  });
});

// Issue 39: whatever a password holds, nothing of it is shown — in a start-up error (the whole
// value, parseable or not) or a log line (a URL inside free text or a JSON field).
const PASSWORD_CHARS = [...'abcXYZ019/@:"\'?#%&=+\\ $!~.-_'];
const password = fc
  .array(fc.constantFrom(...PASSWORD_CHARS), { minLength: 6, maxLength: 24 })
  .map((cs) => `Q${cs.join('')}Z`);
const shapes = [
  (pw: string) => `postgres://app:${pw}@db.example:5432/pv`,
  (pw: string) => `postgresql://${pw}@db.example/pv?sslmode=require`,
  (pw: string) => `postgresql//u:${pw}@host/db`,
  (pw: string) => `smtps://mailer:${pw}@smtp.example:465`,
  (pw: string) => `https://${pw}@o1.ingest.sentry.io/42`,
  (pw: string) => `u:${pw}@host/db`,
];

describe('URL user information, property', () => {
  it('no password survives shownConfigValue for any URL-like variable', () => {
    fc.assert(
      fc.property(password, fc.constantFrom(...shapes), fc.constantFrom('DATABASE_URL', 'DATABASE_DIRECT_URL', 'SMTP_URL', 'SENTRY_DSN', 'PUBLIC_URL', 'OTHER_URL'), (pw, shape, variable) => {
        const shown = shownConfigValue(variable, shape(pw))!;
        expect(shown).not.toContain(pw);
        expect(shown).toContain('***@');
      }),
      { numRuns: 2000 },
    );
  });

  it('no password without whitespace survives a log line, as a message or a field', () => {
    const noSpace = password.map((pw) => pw.replace(/ /g, '_'));
    fc.assert(
      fc.property(noSpace, fc.constantFrom(...shapes.slice(0, 5)), (pw, shape) => {
        const lines: string[] = [];
        const log = createLogger('debug', {}, (l) => lines.push(l));
        const url = shape(pw);
        log.error(`connect failed for ${url}: refused`, { url, err: new Error(`bad url "${url}"`) });
        expect(lines.join('\n')).not.toContain(pw);
        // The JSON escape of the password must not survive either.
        expect(lines.join('\n')).not.toContain(JSON.stringify(pw).slice(1, -1));
        for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves stack frames of scoped packages alone', () => {
    const frame = 'at x (file:///app/node_modules/@hono/node-server/dist/index.mjs:1:2)';
    expect(redactText(frame)).toBe(frame);
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

  it("drops a failed query's parameters (what the user typed), keeping the SQL and the cause", () => {
    const lines: string[] = [];
    const log = createLogger('debug', {}, (l) => lines.push(l));
    const err = new DrizzleQueryError('select * from "user" where "email" = $1', ['someone.private@example.test', 42], new Error('invalid byte sequence'));
    log.error('unhandled error', { err });
    const out = lines.join('\n');
    expect(out).not.toContain('someone.private');
    expect(out).toContain('where \\"email\\" = $1');
    expect(out).toContain('params: [2 redacted]');
  });
});
