/**
 * Names that pass for the house (issue 39). One list for vanity referral codes (which may not
 * contain any of them, `server/modules/referrals/codes.ts`) and for usernames and display names
 * (which may not be one of them, alone or among separators: `Packvault`, `support`,
 * `packvault_support`, `Staff-2`, `SupportTeam`, `adm1n`, `PackvaultTeam`).
 */
export const RESERVED_WORDS = ['ADMIN', 'SUPPORT', 'PACKVAULT', 'STAFF', 'HELP', 'OFFICIAL', 'MODERATOR', 'SYSTEM', 'ROOT', 'OWNER', 'SECURITY', 'BILLING', 'REFUND'];

/**
 * The shop's own name may not even start or end a name written without separators
 * (`packvaultteam`); the other words only as words, so `supportive` and `badminton` stay free.
 */
const HOUSE_WORDS = ['packvault'];
const RESERVED = RESERVED_WORDS.map((w) => w.toLowerCase());

/** Digits read as the letters they imitate (`adm1n`, `5upport`, `p4ckvault`). */
const deLeet = (s: string) =>
  s.replace(/0/g, 'o').replace(/1/g, 'i').replace(/3/g, 'e').replace(/4/g, 'a').replace(/5/g, 's').replace(/7/g, 't').replace(/8/g, 'b');

/** True when a username or display name is, or is made of, a reserved word (case-insensitive). */
export function isReservedName(name: string): boolean {
  const lower = name.trim().toLowerCase();
  // camelCase parts count as words too: SupportTeam → support, team.
  const split = name.trim().replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  for (const variant of new Set([lower, deLeet(lower), split, deLeet(split), lower.replace(/1/g, 'l')])) {
    const words = variant.split(/[^a-z0-9]+/).filter(Boolean);
    // Digits alone are a suffix, not a word: `staff2` is `staff`.
    if (words.some((w) => RESERVED.includes(w) || RESERVED.includes(w.replace(/\d+$/, '')))) return true;
    const compact = words.join('');
    if (RESERVED.includes(compact)) return true;
    if (HOUSE_WORDS.some((h) => compact.startsWith(h) || compact.replace(/\d+$/, '').endsWith(h))) return true;
  }
  return false;
}

export const RESERVED_NAME_MESSAGE = 'That name is kept for the shop’s own accounts. Pick another.';
