/**
 * The one home of English word forms both sides write (issue 41 item 8): a count with its noun,
 * "a" or "an" before a word, and an instant written for a message the server sends.
 *
 * The site's text is English, so the plural rules are English whatever the viewer's locale: a
 * French viewer still reads "0 cards", not "0 card". The rules object is built on first use, not
 * when the module loads (the first Intl object of a page loads ICU's data).
 */

import { groupThousands } from './money.ts';

let englishPlurals: Intl.PluralRules | undefined;

/**
 * A whole number grouped as the site's English text is (and as its prices are, money.ts):
 * "12,345". Anything but a whole number goes through Intl.
 */
export function formatCount(n: number): string {
  if (Number.isSafeInteger(n)) return n < 0 ? `-${groupThousands(-n)}` : groupThousands(n);
  return new Intl.NumberFormat('en-US').format(n);
}

/** The noun alone, agreeing with n: pluralNoun(1, 'pack') → "pack", pluralNoun(0, 'pack') → "packs". */
export function pluralNoun(n: number, one: string, many = `${one}s`): string {
  return (englishPlurals ??= new Intl.PluralRules('en-US')).select(n) === 'one' ? one : many;
}

/**
 * A count with its noun agreeing: plural(1, 'card') → "1 card", plural(3, 'card') → "3 cards",
 * plural(2, 'entry', 'entries') → "2 entries". Every "N things" either side writes goes through here.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${pluralNoun(n, one, many)}`;
}

/**
 * A verb after a count: verb(1, 'is', 'are') → "is". For "1 pack is waiting" / "2 packs are waiting",
 * write `${plural(n, 'pack')} ${verb(n, 'is', 'are')} waiting`.
 */
export const verb: (n: number, one: string, many: string) => string = pluralNoun;

// Words whose first letter's sound is not the usual one for its letter.
const AN_BEFORE_SILENT_H = /^(hour|honou?r|honest|heir)/i;
const A_BEFORE_YOU_SOUND = /^(uni|use|usu|uti|ura|ure|uro|eu|ewe|one\b|once\b|u\b)/i;
/** Letters whose name starts with a vowel sound (an "S", an "MRI"). */
const AN_LETTERS = new Set(['A', 'E', 'F', 'H', 'I', 'L', 'M', 'N', 'O', 'R', 'S', 'X']);

/**
 * "a" or "an" for the word that follows, by its sound: article('Uncommon') → "an",
 * article('Rare') → "a", article('Epic') → "an", article('Unique') → "a", article('8%') → "an".
 * Short initialisms are read letter by letter (an SGC grade, a PSA grade).
 */
export function article(word: string): 'a' | 'an' {
  const w = word.trim();
  if (!w) return 'a';
  const digits = /^\d[\d,]*/.exec(w)?.[0].replace(/,/g, '');
  if (digits) {
    // "eight…", "eighty…", and "eleven" / "eighteen" when they lead the spoken number (11, 18, 11,000).
    if (digits.startsWith('8')) return 'an';
    return (digits.startsWith('11') || digits.startsWith('18')) && digits.length % 3 === 2 ? 'an' : 'a';
  }
  const first = /^[A-Za-z]+/.exec(w)?.[0];
  if (!first) return 'a';
  // A short all-capitals word is an initialism (PSA, SGC, UFO); longer ones are words in capitals.
  if (first.length <= 3 && first === first.toUpperCase()) return AN_LETTERS.has(first[0]!) ? 'an' : 'a';
  if (AN_BEFORE_SILENT_H.test(first)) return 'an';
  if (A_BEFORE_YOU_SOUND.test(first)) return 'a';
  return /^[aeiou]/i.test(first) ? 'an' : 'a';
}

/** The word with its article: withArticle('Uncommon') → "an Uncommon", withArticle('Rare') → "a Rare". */
export function withArticle(word: string): string {
  return `${article(word)} ${word}`;
}

/**
 * An instant as the server writes it in a message, to the minute in UTC: "2026-03-01 14:05 UTC".
 * The server knows neither the reader's zone nor their locale; the web finds this exact form in a
 * message (INSTANT_IN_TEXT) and shows the reader's own date and time in its place.
 */
export function instantText(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** instantText's form inside a message; group 1 is the ISO minute ("2026-03-01 14:05"). */
export const INSTANT_IN_TEXT = /\b(\d{4}-\d{2}-\d{2} \d{2}:\d{2}) UTC\b/g;

/** Replaces each instantText in `message` with `format(instant)` (the reader's date and time). */
export function localizeInstants(message: string, format: (d: Date) => string): string {
  return message.replace(INSTANT_IN_TEXT, (whole, minute: string) => {
    const d = new Date(`${minute.replace(' ', 'T')}:00Z`);
    return Number.isNaN(d.getTime()) ? whole : format(d);
  });
}
