import { createRoute } from '@hono/zod-openapi';
import { idSchema } from '../../../shared/contracts/catalog.ts';
import {
  collectionPageSchema,
  collectionQuerySchema,
  missingCardsSchema,
  ownedCardDetailSchema,
  setCompletionListSchema,
  setNameQuerySchema,
  wishlistChangeSchema,
  wishlistSchema,
} from '../../../shared/contracts/collection.ts';
import type { Deps } from '../../deps.ts';
import { actorOf, requireUser } from '../../http/guards.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { getOwnedCard, listCollection } from './service.ts';
import { addToWishlist, listWishlist, missingCards, removeFromWishlist, setCompletion } from './collecting.ts';

/** The signed-in user's vault (/collect). */
export function collectionRoutes(deps: Deps) {
  const app = createRouter();
  const { db } = deps;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/collection',
      tags: ['collection'],
      summary: "The signed-in user's owned cards (filters, search, sort, pages) and the vault's total value",
      middleware: [requireUser] as const,
      request: { query: collectionQuerySchema },
      responses: { 200: jsonContent(collectionPageSchema, 'A page of owned cards'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await listCollection(db, actorOf(c).userId, c.req.valid('query')), 200);
    },
  );

  // Before /collection/{ownedCardId}, which would otherwise take "sets" for an id.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/collection/sets',
      tags: ['collection'],
      summary: 'Set completion: for every set, its size and how many distinct cards of it are in your vault',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(setCompletionListSchema, 'Sets'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await setCompletion(db, actorOf(c).userId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/collection/sets/missing',
      tags: ['collection'],
      summary: 'The cards of one set that are not in your vault, by number',
      middleware: [requireUser] as const,
      request: { query: setNameQuerySchema },
      responses: { 200: jsonContent(missingCardsSchema, 'Missing cards'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await missingCards(db, actorOf(c).userId, c.req.valid('query').set), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wishlist',
      tags: ['collection'],
      summary: 'Your wishlist, newest first',
      middleware: [requireUser] as const,
      responses: { 200: jsonContent(wishlistSchema, 'Wishlist'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await listWishlist(db, actorOf(c).userId), 200);
    },
  );

  const cardParam = z.object({ cardId: idSchema });
  app.openapi(
    createRoute({
      method: 'put',
      path: '/wishlist/{cardId}',
      tags: ['collection'],
      summary: 'Add a card to your wishlist (again: no change)',
      middleware: [requireUser] as const,
      request: { params: cardParam },
      responses: { 200: jsonContent(wishlistChangeSchema, 'On the wishlist'), ...errorResponses },
    }),
    async (c) => c.json(await db.transaction((tx) => addToWishlist(tx, actorOf(c).userId, c.req.valid('param').cardId)), 200),
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/wishlist/{cardId}',
      tags: ['collection'],
      summary: 'Take a card off your wishlist (not on it: no change)',
      middleware: [requireUser] as const,
      request: { params: cardParam },
      responses: { 200: jsonContent(wishlistChangeSchema, 'Off the wishlist'), ...errorResponses },
    }),
    async (c) => c.json(await removeFromWishlist(db, actorOf(c).userId, c.req.valid('param').cardId), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/collection/{ownedCardId}',
      tags: ['collection'],
      summary: 'One of your owned cards: how and when it was acquired, its opening (for the proof), its sale',
      middleware: [requireUser] as const,
      request: { params: z.object({ ownedCardId: idSchema }) },
      responses: { 200: jsonContent(ownedCardDetailSchema, 'Owned card'), ...errorResponses },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await getOwnedCard(db, actorOf(c).userId, c.req.valid('param').ownedCardId), 200);
    },
  );

  return app;
}
