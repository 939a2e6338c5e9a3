import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  acceptOfferSchema,
  buyListingSchema,
  cardCompsSchema,
  counterOfferSchema,
  makeCardOfferSchema,
  makeListingOfferSchema,
  marketOfferPageSchema,
  marketOfferSaleSchema,
  marketOfferSchema,
  offersQuerySchema,
  createListingSchema,
  marketBrowseQuerySchema,
  marketListingPageSchema,
  marketListingSchema,
  marketPurchaseSchema,
  marketQuoteInputSchema,
  marketQuoteSchema,
  myListingsQuerySchema,
  updateListingSchema,
} from '../../../shared/contracts/market.ts';
import type { Deps } from '../../deps.ts';
import { actorOf, requireUser, requireVerified } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import type { Context } from 'hono';
import type { Tx } from '../../db/client.ts';
import type { AppEnv } from '../../http/types.ts';
import { isRetryableTxError } from '../../db/errors.ts';
import { AppError } from '../../http/errors.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import { enforceRateLimit } from '../../lib/rate-limit.ts';
import { expireOffersDue, type MarketCtx } from './offer-holds.ts';
import { getCardComps } from './comps.ts';
import { acceptOffer, cancelOffer, counterOffer, listOffers, makeCardOffer, makeListingOffer, rejectOffer } from './offers.ts';
import { browse, buy, createListing, delist, expireDue, getListing, myListings, quote, updatePrice } from './service.ts';

const json = <T>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });
const idParam = z.object({ id: idSchema });
const offerParam = z.object({ offerId: idSchema });

/** Offers (and swap proposals) a user may make per window (issue 43 item 8: rate limits on offers). */
export const OFFER_RATE = { limit: 20, windowSeconds: 600 } as const;

/** 429 rate_limited past OFFER_RATE: offers and swap proposals share one budget per user. */
export function enforceOfferRate(deps: Deps, userId: string) {
  return enforceRateLimit(deps.dbh, `market-offers:${userId}`, OFFER_RATE.limit, OFFER_RATE.windowSeconds);
}

/**
 * A money transaction (balance.changed after the commit) run again when the database broke a
 * deadlock or a serialization tie (all of it rolled back): flows that close offers lock their
 * buyers' balances, and an offer made meanwhile is locked out of order (offer-holds.ts).
 */
export function marketRunner(deps: Deps) {
  return async <T>(fn: (tx: Tx) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deps.db.transaction(fn);
      } catch (err) {
        if (!isRetryableTxError(err)) throw err;
        if (attempt >= 5) throw new AppError(503, 'busy', 'Many people are trading this card right now. Nothing moved; try again in a moment.');
        await new Promise((r) => setTimeout(r, Math.random() * 10 * attempt));
      }
    }
  };
}

type MarketWork<T> = (tx: Tx, ctx: MarketCtx) => Promise<T>;

/**
 * How the market's routes run their writes (the offers', swaps' and listings' routes alike): each
 * in the market's retrying money transaction; what a write tells (notifications, market.*) goes
 * out once it commits (db/after-commit.ts).
 */
export function marketActions(deps: Deps) {
  const run = marketRunner(deps);
  const ctx: MarketCtx = { deps };
  const transact = <T>(fn: MarketWork<T>): Promise<T> => run((tx) => fn(tx, ctx));
  /** A money POST answered 201 under the request's Idempotency-Key: a replay answers the first response and tells nothing. */
  async function idempotent<T>(c: Context<AppEnv>, scope: string, body: unknown, fn: MarketWork<T>) {
    const actor = actorOf(c);
    const key = requireIdempotencyKey(c);
    const r = await withIdempotency(deps.db, { userId: actor.userId, key, scope, body }, async (tx) => ({ status: 201 as const, body: await fn(tx, ctx) }), run);
    return sendIdempotent(c, r);
  }
  /** Runs a lazy expiry pass (`expire`): each of its transactions tells what it ended. */
  const expiring = (expire: (ctx: MarketCtx) => Promise<unknown>) => expire(ctx);
  return { transact, idempotent, expiring };
}

/** The marketplace (issue 43, ADR 0028): browse, list a vault card, edit, delist, buy now. */
export function marketRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;
  const { transact, idempotent, expiring } = marketActions(deps);
  /** Ends due listings lazily (this one, or a seller's), their offers' buyers told. */
  const expireListings = (opts: { listingId?: string; sellerId?: string }) => expiring((ctx) => expireDue(db, { ...opts, ctx }));

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market',
      tags: ['market'],
      summary: 'Active listings: search by card name, filter by set, class, grade and price, sort by price or newest (public)',
      request: { query: marketBrowseQuerySchema },
      responses: { 200: jsonContent(marketListingPageSchema, 'A page of listings'), ...errorResponses },
    }),
    async (c) => c.json(await browse(db, c.req.valid('query')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market/cards/{id}/comps',
      tags: ['market'],
      summary:
        "A card's price comps (public): collectors' recent sales on the market, the lowest active listing, the shop's buyback quote and value, and the reference a listing's price is checked against. 404 for an unknown or retired card.",
      request: { params: idParam },
      responses: { 200: jsonContent(cardCompsSchema, 'The comps'), ...errorResponses },
    }),
    async (c) => {
      // Public and the same for everyone: a short shared cache (a sale shows within half a minute).
      c.header('Cache-Control', 'public, max-age=30, stale-while-revalidate=60');
      return c.json(await getCardComps(db, c.req.valid('param').id), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market/mine',
      tags: ['market'],
      summary: "The seller's own listings in every state (expired ones end here first)",
      middleware: [requireUser] as const,
      request: { query: myListingsQuerySchema },
      responses: { 200: jsonContent(marketListingPageSchema, 'A page of listings'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      await expireListings({ sellerId: actor.userId });
      c.header('Cache-Control', 'no-store');
      return c.json(await myListings(db, actor.userId, c.req.valid('query')), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/quote',
      tags: ['market'],
      summary: 'What listing at this price costs and pays: the fee and what the seller receives (400 outside the price bounds)',
      middleware: [requireUser] as const,
      request: { body: json(marketQuoteInputSchema) },
      responses: { 200: jsonContent(marketQuoteSchema, 'Quote'), ...errorResponses },
    }),
    async (c) => c.json(quote(c.req.valid('json').priceCents), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market',
      tags: ['market'],
      summary: 'List a vault card at a fixed price (optional expiry). The copy becomes "listed": no shipping or selling back until delisted. 409 listed / invalid_card_state.',
      middleware: [requireVerified] as const,
      request: { body: json(createListingSchema) },
      responses: { 201: jsonContent(marketListingSchema, 'Listed'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const body = c.req.valid('json');
      return c.json(await db.transaction((tx) => createListing(tx, actor.userId, body)), 201);
    },
  );

  // ───────────────────────── offers (ADR 0028 part 2) ─────────────────────────

  const offerPage = (side: 'made' | 'received', path: string, summary: string) =>
    app.openapi(
      createRoute({
        method: 'get',
        path,
        tags: ['market'],
        summary,
        middleware: [requireUser] as const,
        request: { query: offersQuerySchema },
        responses: { 200: jsonContent(marketOfferPageSchema, 'A page of offers'), ...errorResponses },
      }),
      async (c) => {
        const actor = actorOf(c);
        await expiring((ctx) => expireOffersDue(db, { userId: actor.userId, ctx }));
        c.header('Cache-Control', 'no-store');
        return c.json(await listOffers(db, actor.userId, side, c.req.valid('query')), 200);
      },
    );
  offerPage('made', '/market/offers/mine', 'Offers you made: your bids (on listings and cards) and the counters you made as a seller, newest first');
  offerPage(
    'received',
    '/market/offers/received',
    'Offers made to you: bids on your listings, counters to your bids, and open offers on cards you hold a vaulted, unlisted copy of',
  );

  /** Makes an offer (idempotent, rate-limited): the amount is held at once. */
  async function makeOffer(
    c: Context<AppEnv>,
    scope: string,
    body: unknown,
    make: (tx: Tx, ctx: MarketCtx) => Promise<z.infer<typeof marketOfferSchema>>,
  ) {
    await enforceOfferRate(deps, actorOf(c).userId);
    return idempotent(c, scope, body, make);
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/offers',
      tags: ['market'],
      summary:
        'Offer on a card: any owner of a vaulted, unlisted copy may accept. The amount is held from your free balance at once. 409 insufficient_funds, offer_exists; 403 self_excluded; 429. Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: { body: json(makeCardOfferSchema) },
      responses: { 201: jsonContent(marketOfferSchema, 'Offer made'), ...errorResponses },
    }),
    async (c) => {
      const body = c.req.valid('json');
      return makeOffer(c, 'POST /api/market/offers', body, (tx, ctx) => makeCardOffer(tx, ctx, actorOf(c).userId, body));
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/{id}/offers',
      tags: ['market'],
      summary:
        'Offer on a listing (at most its price). The amount is held from your free balance at once; one open offer per listing. 409 insufficient_funds, offer_exists, listing_sold; 403 self_dealing, self_excluded; 429. Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: { params: idParam, body: json(makeListingOfferSchema) },
      responses: { 201: jsonContent(marketOfferSchema, 'Offer made'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await expireListings({ listingId: id });
      return makeOffer(c, `POST /api/market/${id}/offers`, body, (tx, ctx) => makeListingOffer(tx, ctx, actorOf(c).userId, id, body));
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/offers/{offerId}/accept',
      tags: ['market'],
      summary:
        'Accept an offer made to you: the sale, at once (a card offer names your vaulted copy: ownedCardId). 409 offer_closed, listing_sold, listed, insufficient_funds (a counter above the hold); 403 self_dealing. Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: { params: offerParam, body: json(acceptOfferSchema) },
      responses: { 201: jsonContent(marketOfferSaleSchema, 'Sold'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const { offerId } = c.req.valid('param');
      const body = c.req.valid('json');
      await expiring((ctx) => expireOffersDue(db, { offerId, ctx }));
      return idempotent(c, `POST /api/market/offers/${offerId}/accept`, body, (tx, ctx) => acceptOffer(tx, ctx, actor.userId, offerId, body));
    },
  );

  const answer = (action: 'reject' | 'cancel', summary: string, fn: typeof rejectOffer) =>
    app.openapi(
      createRoute({
        method: 'post',
        path: `/market/offers/{offerId}/${action}`,
        tags: ['market'],
        summary,
        middleware: [requireUser] as const,
        request: { params: offerParam },
        responses: { 200: jsonContent(marketOfferSchema, 'Offer'), ...errorResponses },
      }),
      async (c) => {
        const actor = actorOf(c);
        const { offerId } = c.req.valid('param');
        await expiring((ctx) => expireOffersDue(db, { offerId, ctx }));
        return c.json(await transact((tx, ctx) => fn(tx, ctx, actor.userId, offerId)), 200);
      },
    );
  answer('reject', 'Decline an offer made to you (a bid on your listing, or a counter to your bid): the hold goes back to the buyer. 409 offer_closed, offer_action_unavailable (card offers).', rejectOffer);
  answer('cancel', 'Withdraw your own offer (or your counter): the hold goes back to the buyer. 409 offer_closed.', cancelOffer);

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/offers/{offerId}/counter',
      tags: ['market'],
      summary:
        'Counter a bid on your listing with another amount (above the bid, at most your price): a new offer to the buyer, who accepts or declines it; their hold carries over. 409 offer_closed, offer_action_unavailable.',
      middleware: [requireVerified] as const,
      request: { params: offerParam, body: json(counterOfferSchema) },
      responses: { 201: jsonContent(marketOfferSchema, 'The counter-offer'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const { offerId } = c.req.valid('param');
      const body = c.req.valid('json');
      await expiring((ctx) => expireOffersDue(db, { offerId, ctx }));
      return c.json(await transact((tx, ctx) => counterOffer(tx, ctx, actor.userId, offerId, body)), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/market/{id}',
      tags: ['market'],
      summary: 'One listing (public while active; its seller and buyer see it after it ends)',
      request: { params: idParam },
      responses: { 200: jsonContent(marketListingSchema, 'Listing'), ...errorResponses },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await expireListings({ listingId: id });
      return c.json(await getListing(db, id, c.get('actor')?.userId ?? null), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/market/{id}',
      tags: ['market'],
      summary: 'Change the price of your active listing (bumps its version: a buyer who saw the old price gets 409 price_changed)',
      middleware: [requireVerified] as const,
      request: { params: idParam, body: json(updateListingSchema) },
      responses: { 200: jsonContent(marketListingSchema, 'Listing'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const { id } = c.req.valid('param');
      const { priceCents, confirmFarPrice } = c.req.valid('json');
      await expireListings({ listingId: id });
      return c.json(await db.transaction((tx) => updatePrice(tx, actor.userId, id, priceCents, confirmFarPrice)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/market/{id}',
      tags: ['market'],
      summary: 'Delist your active listing: the card goes back to your vault',
      middleware: [requireUser] as const,
      request: { params: idParam },
      responses: { 200: jsonContent(marketListingSchema, 'Delisted'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const { id } = c.req.valid('param');
      await expireListings({ listingId: id });
      return c.json(await transact((tx, ctx) => delist(tx, actor.userId, id, ctx)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/market/{id}/buy',
      tags: ['market'],
      summary:
        'Buy now at the price you saw (expectedPriceCents): one transaction moves the money and the card. 409 listing_sold, price_changed, insufficient_funds; 403 self_dealing, self_excluded. Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: { params: idParam, body: json(buyListingSchema) },
      responses: { 201: jsonContent(marketPurchaseSchema, 'Bought'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      await expireListings({ listingId: id });
      return idempotent(
        c,
        `POST /api/market/${id}/buy`,
        body,
        // Once committed, open /market pages drop the tile (ADR 0028) and the closed offers' buyers hear.
        (tx) => buy(tx, actor.userId, id, body, { idempotencyKey: key, deps }),
      );
    },
  );

  return app;
}
