import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emailSchema, passwordSchema, signUpSchema, usernameSchema } from '@shared/contracts/account';
import { EMAIL_RE, emailRule, passwordRule, signUpConsentMessages, usernameRule, type TextRule } from '@shared/contracts/account-rules';
import { checksResolver } from './checks-resolver';
import { checkText, checkTicked } from './form-check';

/** What the API's schema answers: the trimmed value, or the first message (what a field shows). */
function api(schema: z.ZodType, input: unknown) {
  const r = schema.safeParse(input);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: r.error.issues[0]!.message };
}

const long = (n: number, c = 'a') => c.repeat(n);

const cases: [string, z.ZodType, TextRule, unknown[]][] = [
  [
    'email',
    emailSchema,
    emailRule,
    [
      '', '   ', 'ash@example.com', '  Ash@Example.COM  ', 'ash', 'ash@', '@example.com', 'ash@example', 'ash@example.c',
      'a.b+c@sub.example.co.uk', '.ash@example.com', 'ash.@example.com', 'a..b@example.com', 'ash@-example.com',
      'ash@exa_mple.com', 'ash example@x.com', 'ash@example.com.', `${long(245)}@example.com`, `${long(240)}@example.com`,
      'élan@example.com', "o'neil@example.com", undefined, null, 42, {},
    ],
  ],
  [
    'username',
    usernameSchema,
    usernameRule,
    [
      '', 'ab', ' ab ', 'abc', '  Ash_K  ', 'Ash-K_42', long(20), long(21), 'a!', 'bad name', 'émile', 'Packvault',
      'packvault_support', 'SupportTeam', 'adm1n', 'staff2', 'supportive', 'badminton', 'ab!', `${long(21)}!`, undefined, 7,
    ],
  ],
  ['password', passwordSchema, passwordRule, ['', 'short', long(7), long(8), ' padded ', long(128), long(129), '        ', undefined, 12345678]],
];

describe('the sign-in pages’ checks match the API’s schemas', () => {
  for (const [name, schema, rule, inputs] of cases) {
    it(`${name}: same first message, same value`, () => {
      for (const input of inputs) expect(checkText(rule, input), JSON.stringify(input)).toEqual(api(schema, input));
    });
  }

  it('the email pattern is zod’s own default one', () => {
    const emails = cases[0]![3].filter((v): v is string => typeof v === 'string').map((v) => v.trim());
    for (const e of emails) expect(EMAIL_RE.test(e), e).toBe(z.regexes.email.test(e));
    expect(EMAIL_RE.source).toBe(z.regexes.email.source);
  });

  it('sign-up consents: only a ticked box passes, with the API’s message', () => {
    const body = { email: 'ash@example.com', password: 'password123', username: 'Ash_K' };
    for (const field of ['ageConfirmed', 'termsAccepted'] as const) {
      for (const input of [true, false, undefined, 'true']) {
        const r = signUpSchema.safeParse({ ...body, ageConfirmed: true, termsAccepted: true, [field]: input });
        const apiAnswer = r.success ? { ok: true, value: true } : { ok: false, message: r.error.issues[0]!.message };
        expect(checkTicked(signUpConsentMessages[field], input)).toEqual(apiAnswer);
      }
    }
  });
});

describe('checksResolver', () => {
  const resolver = checksResolver<{ email: string; password: string }>({
    email: (v) => checkText(emailRule, v),
    password: (v) => checkText(passwordRule, v),
  });
  const options = { fields: {}, shouldUseNativeValidation: false } as never;

  it('gives each failing field its first message', async () => {
    const r = await resolver({ email: ' nope ', password: 'short' }, undefined, options);
    expect(r.values).toEqual({});
    expect(r.errors).toMatchObject({
      email: { message: 'Enter a valid email address.' },
      password: { message: 'Use at least 8 characters.' },
    });
  });

  it('hands the submit handler the checked values, trimmed as the API trims them', async () => {
    const r = await resolver({ email: '  ash@example.com ', password: ' password123 ' }, undefined, options);
    expect(r.errors).toEqual({});
    expect(r.values).toEqual({ email: 'ash@example.com', password: ' password123 ' });
  });
});
