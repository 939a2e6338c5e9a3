import { createRoute } from '@hono/zod-openapi';
import Stripe from 'stripe';
import {
  createDepositResponseSchema,
  createDepositSchema,
  depositListSchema,
  depositOptionsSchema,
  depositResultSchema,
  depositSchema,
  pendingBonusSchema,
} from '../../../shared/contracts/wallet.ts';
import type { Tx } from '../../db/client.ts';
import type { Deps } from '../../deps.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { actorOf, requireUser, requireVerified } from '../../http/guards.ts';
import { isLoopbackPeer, loopbackOnlyError } from '../../http/loopback.ts';
import { createRouter, errorResponses, jsonContent, z } from '../../http/openapi.ts';
import { requireIdempotencyKey, sendIdempotent, withIdempotency } from '../../lib/idempotency.ts';
import { pendingBonus } from '../promo/service.ts';
import { getBalance } from '../wallet/service.ts';
import { createPaymentProvider, depositBounds, type PaymentProvider, type StripeCheckoutClient } from './provider.ts';
import {
  createDeposit,
  ExpiredDeposit,
  expiredError,
  failDeposit,
  getOwnDeposit,
  handleStripeEvent,
  listDeposits,
  sandboxDecline,
  sandboxPay,
} from './service.ts';

export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook';

const depositParams = z.object({ id: z.uuid('Not a deposit id.') });
const sandboxPayBodySchema = z
  .object({ cardNumber: z.string().trim().max(32, 'At most 32 characters.').regex(/^[\d -]*$/, 'Digits only.').optional() })
  .strict();
const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export interface PaymentsOptions {
  /** Tests pass a stand-in for the Stripe network call. */
  stripeClient?: StripeCheckoutClient;
  provider?: PaymentProvider;
}

/**
 * Deposits (/api/wallet/deposits…), the sandbox checkout actions and the Stripe webhook.
 * Building the router picks the provider, so a production server without Stripe keys (and
 * without ALLOW_SANDBOX_PAYMENTS) refuses to start here as well as in loadConfig.
 */
export function paymentsRoutes(deps: Deps, opts: PaymentsOptions = {}) {
  const app = createRouter();
  const { db, config, log } = deps;
  const provider = opts.provider ?? createPaymentProvider(config, opts.stripeClient);
  // Read per request: the limits are settings an admin changes at runtime.
  const depositSettings = () => {
    const { minCents, maxCents } = depositBounds();
    return { currency: config.currency, minCents, maxCents };
  };
  const tx = <R>(fn: (tx: Tx) => Promise<R>) => deps.db.transaction(fn);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/deposit-options',
      tags: ['deposits'],
      summary: 'Deposit provider, test mode, bounds and preset amounts',
      middleware: [requireUser] as const,
      responses: {
        200: jsonContent(depositOptionsSchema.extend({ pendingBonus: pendingBonusSchema }), 'Options'),
        ...errorResponses,
      },
    }),
    async (c) =>
      c.json(
        {
          provider: provider.name,
          testMode: provider.testMode,
          currency: config.currency,
          ...depositBounds(),
          pendingBonus: await pendingBonus(db, actorOf(c).userId),
        },
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/wallet/deposits',
      tags: ['deposits'],
      summary: 'Start a deposit: creates it pending and returns the checkout URL. Needs Idempotency-Key and a verified email.',
      middleware: [requireVerified] as const,
      request: { body: { required: true, content: { 'application/json': { schema: createDepositSchema } } } },
      responses: { 201: jsonContent(createDepositResponseSchema, 'Deposit started'), ...errorResponses },
    }),
    async (c) => {
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const body = c.req.valid('json');
      const r = await withIdempotency(
        db,
        { userId: actor.userId, key, scope: 'POST /api/wallet/deposits', body },
        async (t) => {
          try {
            return { status: 201 as const, body: await createDeposit(t, provider, depositSettings(), { userId: actor.userId, amountCents: body.amountCents, returnPath: body.returnPath ?? null }) };
          } catch (err) {
            if (err instanceof AppError) throw err;
            if (err instanceof Stripe.errors.StripeError) {
              log.error('stripe checkout failed', { err: err.message, type: err.type });
              throw new AppError(502, 'payment_provider_error', 'The payment provider did not answer. Try again in a minute.');
            }
            throw err;
          }
        },
        tx,
      );
      return sendIdempotent(c, r);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/deposits',
      tags: ['deposits'],
      summary: "The signed-in user's deposits, newest first",
      middleware: [requireUser] as const,
      request: { query: pageQuery },
      responses: { 200: jsonContent(depositListSchema, 'Deposits'), ...errorResponses },
    }),
    async (c) => {
      const { page, pageSize } = c.req.valid('query');
      return c.json(await listDeposits(db, actorOf(c).userId, page, pageSize), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/wallet/deposits/{id}',
      tags: ['deposits'],
      summary: 'One of your deposits (receipt)',
      middleware: [requireUser] as const,
      request: { params: depositParams },
      responses: { 200: jsonContent(z.object({ deposit: depositSchema }), 'Deposit'), ...errorResponses },
    }),
    async (c) => c.json({ deposit: await getOwnDeposit(db, actorOf(c).userId, c.req.valid('param').id) }, 200),
  );

  // Sandbox checkout ------------------------------------------------------------------------------

  // Outside production the sandbox is a developer's tool: it pays only for this machine. In
  // production it runs only with ALLOW_SANDBOX_PAYMENTS (loadConfig and createPaymentProvider).
  const sandboxOnly = (c: { env?: unknown; req: { raw: Request } }) => {
    if (provider.name !== 'sandbox') throw notFound('The test-mode checkout is off: payments go through Stripe.');
    if (!deps.config.isProduction && !isLoopbackPeer(c)) throw loopbackOnlyError('The test-mode checkout');
  };

  app.openapi(
    createRoute({
      method: 'post',
      path: '/payments/sandbox/deposits/{id}/pay',
      tags: ['deposits'],
      summary: 'TEST MODE: pay a pending sandbox deposit (credits the balance). Needs Idempotency-Key.',
      middleware: [requireVerified] as const,
      request: {
        params: depositParams,
        // Optional, so callers without a body keep working: the test card typed on the checkout,
        // hashed into the deposit's payer fingerprint (referral self-check).
        body: { required: false, content: { 'application/json': { schema: sandboxPayBodySchema } } },
      },
      responses: { 200: jsonContent(depositResultSchema, 'Paid'), ...errorResponses },
    }),
    async (c) => {
      sandboxOnly(c);
      const actor = actorOf(c);
      const key = requireIdempotencyKey(c);
      const { id } = c.req.valid('param');
      const cardNumber = (c.req.valid('json') as { cardNumber?: string } | undefined)?.cardNumber ?? null;
      try {
        const r = await withIdempotency(
          db,
          // The card typed is part of the request: the same key with another card is another request.
          { userId: actor.userId, key, scope: `POST /api/payments/sandbox/deposits/${id}/pay`, body: cardNumber === null ? {} : { cardNumber } },
          async (t) => {
            const deposit = await sandboxPay(deps, t, actor.userId, id, new Date(), cardNumber);
            const { balanceCents } = await getBalance(t, actor.userId);
            return { status: 200 as const, body: { deposit, balanceCents } };
          },
          tx,
        );
        return sendIdempotent(c, r);
      } catch (err) {
        if (err instanceof ExpiredDeposit) {
          await failDeposit(db, err.depositId, 'Checkout expired');
          throw expiredError();
        }
        throw err;
      }
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/payments/sandbox/deposits/{id}/decline',
      tags: ['deposits'],
      summary: 'TEST MODE: decline a pending sandbox deposit (marks it failed; no money moves)',
      middleware: [requireUser] as const,
      request: { params: depositParams },
      responses: { 200: jsonContent(depositResultSchema, 'Declined'), ...errorResponses },
    }),
    async (c) => {
      sandboxOnly(c);
      const actor = actorOf(c);
      const deposit = await db.transaction((t) => sandboxDecline(t, actor.userId, c.req.valid('param').id));
      return c.json({ deposit, balanceCents: null }, 200);
    },
  );

  // Stripe webhook --------------------------------------------------------------------------------

  app.openapi(
    createRoute({
      method: 'post',
      path: '/payments/stripe/webhook',
      tags: ['deposits'],
      summary: 'Stripe webhook (signed with STRIPE_WEBHOOK_SECRET); each event is processed once',
      responses: {
        200: jsonContent(z.object({ received: z.boolean(), outcome: z.string() }), 'Accepted'),
        ...errorResponses,
      },
    }),
    async (c) => {
      const secret = config.stripeWebhookSecret;
      if (!secret || provider.name !== 'stripe') throw notFound('Stripe payments are not configured on this server.');
      const signature = c.req.header('stripe-signature');
      if (!signature) throw badRequest('Missing Stripe-Signature header.', undefined, 'invalid_signature');
      const payload = await c.req.text();
      let event: Stripe.Event;
      try {
        event = await Stripe.webhooks.constructEventAsync(payload, signature, secret);
      } catch {
        log.warn('stripe webhook with a bad signature');
        throw badRequest('The webhook signature does not match.', undefined, 'invalid_signature');
      }
      const outcome = await tx((t) => handleStripeEvent(deps, t, event, log));
      log.info('stripe webhook', { id: event.id, type: event.type, outcome });
      return c.json({ received: true, outcome }, 200);
    },
  );

  return app;
}
