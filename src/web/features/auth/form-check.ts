/**
 * The sign-in pages' field checks, without zod: they run the account rules of
 * shared/contracts/account-rules.ts, the same rules the API's zod schemas are built from
 * (account.ts `textSchema`), in the same order, giving the same first message and the same
 * trimmed value (form-check.test.ts compares the two on many inputs).
 *
 * Why not zod here: /sign-in, /sign-up and the password pages are public, and a first visit may
 * load 150 KB gzip of JavaScript (issue 40). Classic zod cannot be tree-shaken (25 KB gzip). zod/mini
 * can, but only down to the zod core module it shares with classic zod, which the signed-in pages
 * use all of: a build tree-shakes a module once for every page, so the core came whole (15 KB gzip)
 * and the pages stayed 6–9 KB over. These checks are under 1 KB. So these pages must not import
 * shared/contracts/account.ts or anything else that imports 'zod'.
 *
 * Nothing here imports react-hook-form, so a page that checks one field by hand (/confirm-request)
 * does not load it; the forms' resolver is checks-resolver.ts.
 */
import type { TextRule } from '@shared/contracts/account-rules';

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string) => ({ ok: false, message }) as const;

/** A text field by its rule: its first failure, or its value (trimmed when the rule trims). */
export function checkText(rule: TextRule, input: unknown): Checked<string> {
  if (typeof input !== 'string') return fail(rule.required);
  const value = rule.trim ? input.trim() : input;
  if (value.length < rule.min.value) return fail(rule.min.message);
  if (value.length > rule.max.value) return fail(rule.max.message);
  if (rule.pattern && !rule.pattern.re.test(value)) return fail(rule.pattern.message);
  if (rule.test && !rule.test.fn(value)) return fail(rule.test.message);
  return { ok: true, value };
}

/** A box that must be ticked (a consent): only `true` passes. */
export function checkTicked(message: string, input: unknown): Checked<boolean> {
  return input === true ? { ok: true, value: true } : fail(message);
}
