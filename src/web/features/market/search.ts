import type { MARKET_SORTS } from '@shared/contracts/market';
import { centsToDecimal, parseMoney } from '@shared/money';

/**
 * /market's filters as the URL carries them (`/market?q=kraken&graded=graded&minPrice=10&sort=price_asc`),
 * so a search can be linked, reloaded and navigated back to. This is the router's validateSearch,
 * so it lives in the app's entry chunk and must not import zod (entry-chunk.test.ts): it only
 * drops what can never be a filter and leaves defaults out. The page then checks the whole query
 * against the API's own zod schema (marketBrowseQuerySchema) before asking, and says what is wrong
 * (a lowest price above the highest…). Prices are in dollars in the URL (what people type),
 * numbers so the router does not quote them; the API gets cents.
 */
export type MarketSort = (typeof MARKET_SORTS)[number];

export interface MarketSearch {
  q?: string;
  set?: string;
  classId?: string;
  graded?: 'graded' | 'raw';
  minGrade?: number;
  minPrice?: number;
  maxPrice?: number;
  sort?: Exclude<MarketSort, 'newest'>;
  page?: number;
}

export const MARKET_PAGE_SIZE = 24;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SORTS: readonly MarketSort[] = ['newest', 'price_asc', 'price_desc'];
const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : typeof v === 'number' ? String(v) : undefined);

/** A price in the URL (dollars, at most two decimals) as cents, or undefined. */
function cents(v: unknown): number | undefined {
  if (typeof v !== 'number' && typeof v !== 'string') return undefined;
  const c = parseMoney(String(v));
  return c === null ? undefined : c;
}

/** Cents as the URL's dollars: 1250 → 12.5. */
export const dollarsOf = (c: number): number => Number(centsToDecimal(c));

/** The route's validateSearch: never throws, drops what cannot be a filter, leaves defaults out. */
export function parseMarketSearch(search: Record<string, unknown>): MarketSearch {
  const out: MarketSearch = {};
  const q = text(search.q, 100);
  if (q) out.q = q;
  const set = text(search.set, 200);
  if (set) out.set = set;
  const classId = text(search.classId, 36);
  if (classId && UUID.test(classId)) out.classId = classId;
  if (search.graded === 'graded' || search.graded === 'raw') out.graded = search.graded;
  const minGrade = Number(search.minGrade);
  if (out.graded !== 'raw' && Number.isFinite(minGrade) && minGrade >= 1 && minGrade <= 10) out.minGrade = minGrade;
  const min = cents(search.minPrice);
  if (min !== undefined) out.minPrice = dollarsOf(min);
  const max = cents(search.maxPrice);
  if (max !== undefined) out.maxPrice = dollarsOf(max);
  if (typeof search.sort === 'string' && SORTS.includes(search.sort as MarketSort) && search.sort !== 'newest') {
    out.sort = search.sort as Exclude<MarketSort, 'newest'>;
  }
  const page = Number(search.page);
  if (Number.isInteger(page) && page > 1) out.page = page;
  return out;
}

/** The API query of a parsed search (GET /api/market). */
export function browseQueryOf(s: MarketSearch) {
  const sort: MarketSort = s.sort ?? 'newest';
  return {
    ...(s.q ? { q: s.q } : {}),
    ...(s.set ? { set: s.set } : {}),
    ...(s.classId ? { classId: s.classId } : {}),
    ...(s.graded ? { graded: s.graded } : {}),
    ...(s.minGrade !== undefined ? { minGrade: s.minGrade } : {}),
    ...(s.minPrice !== undefined ? { minPriceCents: cents(s.minPrice) } : {}),
    ...(s.maxPrice !== undefined ? { maxPriceCents: cents(s.maxPrice) } : {}),
    sort,
    page: s.page ?? 1,
    pageSize: MARKET_PAGE_SIZE,
  };
}

/** /profile/market's tab in the URL (`?tab=offers-received`), so a notification or a link opens the right list. */
export const MY_MARKET_TABS = ['listings', 'sales', 'offers-made', 'offers-received', 'swaps-made', 'swaps-received'] as const;
export type MyMarketTab = (typeof MY_MARKET_TABS)[number];
export interface MyMarketSearch {
  tab?: Exclude<MyMarketTab, 'listings'>;
}

export function parseMyMarketSearch(search: Record<string, unknown>): MyMarketSearch {
  const t = search.tab;
  return typeof t === 'string' && t !== 'listings' && (MY_MARKET_TABS as readonly string[]).includes(t) ? { tab: t as Exclude<MyMarketTab, 'listings'> } : {};
}
