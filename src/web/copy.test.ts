// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plural } from './lib/format';
import { welcomeText } from './features/auth/session';
import type { Me } from '@shared/contracts/me';

/** Issue 19, user-facing copy: counts agree with their noun, and "Welcome back" means it. */

const webRoot = import.meta.dirname;
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return files(p);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [p] : [];
  });

// Back-office screens are checked by the admin-side pass (issue 19); this guards what players see.
const isAdminFile = (rel: string) => /(^|\/)admin|admin-|-admin/.test(rel);
/** Interpolations that can never be 1: constants (MAX_…), fractions, or a line that already branches on 1. */
const safe = (expr: string, line: string) => /^[$]?\{[A-Z0-9_]+\}$/.test(expr) || /toFixed|toLocaleString\('en-US'\)/.test(expr) || /[!=]== 1\b|> 1\b/.test(line);

describe('counts in copy', () => {
  it('plural() agrees with the count', () => {
    expect(plural(1, 'card')).toBe('1 card');
    expect(plural(0, 'card')).toBe('0 cards');
    expect(plural(3, 'card')).toBe('3 cards');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(2, 'entry', 'entries')).toBe('2 entries');
    expect(plural(12345, 'pack')).toMatch(/^12.?345 packs$/);
  });

  it('no interpolated count is followed by a fixed plural noun ("1 cards each")', () => {
    // `${n} cards`, {n} cards: the noun never agrees when n is 1.
    const pattern = /(?:\$\{[^{}]*\}|\{[^{}]*\}) (?:cards|packs|pulls|shipments|entries|openings|codes|items|days)\b/g;
    const found: string[] = [];
    for (const f of files(webRoot)) {
      const rel = relative(webRoot, f).split('\\').join('/');
      if (isAdminFile(rel)) continue;
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        for (const m of line.matchAll(pattern)) {
          const expr = m[0].slice(0, m[0].lastIndexOf(' '));
          if (!safe(expr, line)) found.push(`${rel}: ${m[0]}`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

describe('greeting', () => {
  const me = (createdAt: string) => ({ user: { username: 'ada', createdAt } }) as unknown as Me;
  const now = Date.parse('2026-11-25T12:00:00Z');
  it('says "Welcome" to a brand-new account and "Welcome back" to a returning one', () => {
    expect(welcomeText(me('2026-11-25T11:59:00Z'), false, now)).toBe('Welcome, ada');
    expect(welcomeText(me('2026-11-25T11:59:00Z'), true, now)).toBe('Welcome back, ada');
    expect(welcomeText(me('2026-11-20T11:59:00Z'), false, now)).toBe('Welcome back, ada');
    expect(welcomeText(null, false, now)).toBe('Welcome');
  });
});
