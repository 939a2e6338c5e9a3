import { describe, expect, it } from 'vitest';
import { article, formatCount, instantText, localizeInstants, plural, pluralNoun, verb, withArticle } from './words.ts';

describe('plural', () => {
  it('agrees with the count by English rules', () => {
    expect(plural(1, 'card')).toBe('1 card');
    expect(plural(2, 'card')).toBe('2 cards');
    expect(plural(0, 'pack')).toBe('0 packs');
    expect(plural(-1, 'day')).toBe('-1 day');
    expect(plural(1.5, 'card')).toBe('1.5 cards');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(12_345, 'entry', 'entries')).toBe('12,345 entries');
  });
  it('gives the noun and verb alone', () => {
    expect(pluralNoun(1, 'pack')).toBe('pack');
    expect(pluralNoun(5, 'copy', 'copies')).toBe('copies');
    expect(`${plural(1, 'pack')} ${verb(1, 'is', 'are')} waiting`).toBe('1 pack is waiting');
    expect(`${plural(3, 'pack')} ${verb(3, 'is', 'are')} waiting`).toBe('3 packs are waiting');
    expect(`${plural(1, 'pack')} ${verb(1, 'costs', 'cost')}`).toBe('1 pack costs');
  });
  it('groups counts as the English text around them', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-1234)).toBe('-1,234');
  });
});

describe('article', () => {
  it('follows the sound of the rarity names', () => {
    expect(withArticle('Uncommon')).toBe('an Uncommon');
    expect(withArticle('Common')).toBe('a Common');
    expect(withArticle('Rare')).toBe('a Rare');
    expect(withArticle('Epic')).toBe('an Epic');
    expect(withArticle('Legendary')).toBe('a Legendary');
    expect(withArticle('Ultra Rare')).toBe('an Ultra Rare');
    expect(withArticle('Unique')).toBe('a Unique');
    expect(withArticle('Holo')).toBe('a Holo');
    expect(withArticle('Honorary')).toBe('an Honorary');
    expect(withArticle('UNCOMMON')).toBe('an UNCOMMON');
  });
  it('reads initialisms letter by letter', () => {
    expect(withArticle('SGC')).toBe('an SGC');
    expect(withArticle('PSA')).toBe('a PSA');
    expect(withArticle('BGS')).toBe('a BGS');
    expect(withArticle('CGC')).toBe('a CGC');
  });
  it('reads numbers as they are spoken', () => {
    expect(withArticle('8%')).toBe('an 8%');
    expect(withArticle('80%')).toBe('an 80%');
    expect(withArticle('11%')).toBe('an 11%');
    expect(withArticle('18%')).toBe('an 18%');
    expect(withArticle('110%')).toBe('a 110%');
    expect(withArticle('5%')).toBe('a 5%');
    expect(withArticle('11,000')).toBe('an 11,000');
    expect(article('')).toBe('a');
  });
});

describe('instants in messages', () => {
  const at = new Date('2026-03-01T23:30:00Z');
  it('writes the server side to the minute in UTC', () => {
    expect(instantText(at)).toBe('2026-03-01 23:30 UTC');
  });
  it("lets the reader's side show its own locale and time zone", () => {
    const msg = `You have excluded yourself until ${instantText(at)}, so buying packs is blocked until then.`;
    const berlin = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' });
    expect(localizeInstants(msg, (d) => berlin.format(d))).toBe('You have excluded yourself until 02.03.2026, 00:30, so buying packs is blocked until then.');
    const honolulu = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Pacific/Honolulu' });
    expect(localizeInstants(msg, (d) => honolulu.format(d))).toMatch(/until Mar 1, 2026, 1:30\sPM, so/);
  });
  it('leaves a message without an instant as it is', () => {
    expect(localizeInstants('Nothing was charged.', () => 'x')).toBe('Nothing was charged.');
  });
});
