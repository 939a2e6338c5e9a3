/** Helpers the market's HTTP tests share. */
import type { MarketListing } from '../../../shared/contracts/market.ts';
import { fund } from '../shipping/test-support.ts';
import type { MoneyTestContext } from '../wallet/test-support.ts';

export type ApiErr = { error: { code: string; message: string; fields?: Record<string, string[]> } };
export const json = async <T>(res: Response) => (await res.json()) as T;
export const codeOf = async (res: Response) => (await json<ApiErr>(res)).error.code;
export const errOf = async (res: Response) => (await json<ApiErr>(res)).error;

/** Lists a copy through the API and returns the listing (throws on anything but 201). */
export async function listOk(t: MoneyTestContext, userId: string, ownedCardId: string, priceCents: number, extra: Record<string, unknown> = {}) {
  const res = await t.as(userId).post('/api/market', { ownedCardId, priceCents, ...extra });
  if (res.status !== 201) throw new Error(`list: ${res.status} ${await res.text()}`);
  return json<MarketListing>(res);
}

/** A new user with `cents` deposited. */
export async function buyerWith(t: MoneyTestContext, cents: number) {
  const id = await t.makeUser();
  if (cents > 0) await fund(t, id, cents);
  return id;
}
