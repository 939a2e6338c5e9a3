import { describe, expect, it } from 'vitest';
import { marketBrowseQuerySchema } from '@shared/contracts/market';
import { browseQueryOf, parseMarketSearch } from './search';

/**
 * /market's validateSearch is zod-free (it is in the entry chunk); the API's zod schema is the
 * judge. Whatever the URL holds, the parsed search is a query the schema accepts (a price range
 * upside down aside, which the page itself reports).
 */
describe('the /market URL against the API schema', () => {
  const urls: Array<Record<string, unknown>> = [
    {},
    { q: 'Kraken', set: 'Deep Sea', classId: '3f1c5a9e-8b2d-4c6e-9f0a-1b2c3d4e5f60', graded: 'graded', minGrade: 9.5, minPrice: 1, maxPrice: 99.99, sort: 'price_desc', page: 3 },
    { q: 'x'.repeat(500), set: 7, graded: 'yes', minGrade: 11, minPrice: -4, maxPrice: '12.345', sort: 'cheapest', page: 'two' },
    { graded: 'raw', minGrade: 3, minPrice: '1e5', maxPrice: 1_000_000_000_000, page: 1.5 },
    { q: '  ', minPrice: 0, maxPrice: 0, classId: 'not-a-class' },
  ];
  it.each(urls.map((u) => [JSON.stringify(u).slice(0, 80), u] as const))('%s', (_name, url) => {
    const r = marketBrowseQuerySchema.safeParse(browseQueryOf(parseMarketSearch(url)));
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
  });
});
