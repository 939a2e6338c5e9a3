import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import { setting } from '../settings/store.ts';

/**
 * How a deposit is paid. The provider only starts a checkout; money is credited by the payments
 * service when the provider confirms (the sandbox's Pay button, or Stripe's signed webhook).
 */
export interface CheckoutRequest {
  depositId: string;
  userId: string;
  amountCents: number;
  currency: string;
  /** A same-origin path (validated by returnPathSchema) to come back to; billing when absent. */
  returnPath?: string | null;
}

export interface CheckoutStart {
  /** Where to send the browser: an absolute Stripe URL or the in-app sandbox page. */
  checkoutUrl: string;
  /** The provider's id for this checkout (Stripe Checkout Session id). */
  providerRef: string | null;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'stripe';
  /** True when no real money moves; every page showing it says TEST MODE. */
  readonly testMode: boolean;
  startCheckout(req: CheckoutRequest): Promise<CheckoutStart>;
}

/** Built-in test-mode provider: an in-app page where the user presses Pay or Decline. */
export function sandboxProvider(): PaymentProvider {
  return {
    name: 'sandbox',
    testMode: true,
    async startCheckout(req) {
      return { checkoutUrl: `/checkout/${req.depositId}`, providerRef: null };
    },
  };
}

/** The part of the Stripe client we use, so tests can stand in for the network call. */
export interface StripeCheckoutClient {
  checkout: { sessions: { create: Stripe['checkout']['sessions']['create'] } };
}

export const STRIPE_CHECKOUT_TTL_SECONDS = 3600;

export function stripeProvider(config: Config, client: StripeCheckoutClient): PaymentProvider {
  const testMode = !config.stripeSecretKey?.includes('_live_');
  return {
    name: 'stripe',
    testMode,
    async startCheckout(req) {
      const path = req.returnPath ?? '/profile/billing';
      const back = `${config.publicUrl}${path}${path.includes('?') ? '&' : '?'}deposit=${encodeURIComponent(req.depositId)}`;
      const session = await client.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: req.depositId,
          metadata: { depositId: req.depositId, userId: req.userId },
          payment_intent_data: { metadata: { depositId: req.depositId, userId: req.userId } },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: req.currency.toLowerCase(),
                unit_amount: req.amountCents,
                product_data: { name: `${setting('site.identity').siteName} balance top-up` },
              },
            },
          ],
          success_url: `${back}&result=success`,
          cancel_url: `${back}&result=cancelled`,
          expires_at: Math.floor(Date.now() / 1000) + STRIPE_CHECKOUT_TTL_SECONDS,
        },
        { idempotencyKey: `deposit-${req.depositId}` },
      );
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL');
      return { checkoutUrl: session.url, providerRef: session.id };
    },
  };
}

export function stripeConfigured(config: Config): boolean {
  return Boolean(config.stripeSecretKey && config.stripeWebhookSecret);
}

/**
 * Stripe when both keys are set, else the sandbox. With NODE_ENV=production the sandbox refuses
 * to start unless ALLOW_SANDBOX_PAYMENTS is set (loadConfig already refuses; this guards any
 * other way of building a Config).
 */
export function createPaymentProvider(config: Config, stripeClient?: StripeCheckoutClient): PaymentProvider {
  if (stripeConfigured(config)) {
    return stripeProvider(config, stripeClient ?? new Stripe(config.stripeSecretKey!, { maxNetworkRetries: 2 }));
  }
  if (config.isProduction && !config.allowSandboxPayments) {
    throw new Error(
      'Payments: NODE_ENV=production without STRIPE_SECRET_KEY/STRIPE_WEBHOOK_SECRET would take test-mode deposits. Set the Stripe keys, or ALLOW_SANDBOX_PAYMENTS=true for a demo.',
    );
  }
  return sandboxProvider();
}

export const DEFAULT_DEPOSIT_PRESETS_CENTS = [1000, 2500, 5000, 10000, 25000];

/** The deposit limits now (settings registry 'payments.depositLimits', cached), with the presets inside them. */
export function depositBounds() {
  const { minCents, maxCents } = setting('payments.depositLimits');
  const presetsCents = DEFAULT_DEPOSIT_PRESETS_CENTS.filter((p) => p >= minCents && p <= maxCents);
  return { minCents, maxCents, presetsCents: presetsCents.length ? presetsCents : [minCents] };
}
