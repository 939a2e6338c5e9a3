import { z } from 'zod';

/** The one error shape every /api endpoint answers with. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
    retryAfter: z.number().int().optional(),
    /** With `maintenance` (503): the expected end, an ISO instant, or null when unknown. */
    endsAt: z.string().nullable().optional(),
    /** With a 500: the request's id (also the X-Request-Id header), to quote in a support request. */
    requestId: z.string().optional(),
  }),
});
export type ApiError = z.infer<typeof apiErrorSchema>['error'];

/**
 * Every code the API answers with (`error.code`). `AppError` on the server takes only these, and
 * the web's `ApiClientError.code` is typed with them, so a code the web branches on that the server
 * never sends, or a typo on either side, fails to compile. Add a code here when a new failure needs
 * its own handling; otherwise use a general one (validation_failed, conflict, not_found, …).
 */
export const ERROR_CODES = [
  // general
  'validation_failed',
  'malformed_json',
  /** 400: a NUL or bytes that are not valid UTF-8 / percent-encoding in the path, query or JSON body. */
  'invalid_encoding',
  'unsupported_media_type',
  'method_not_allowed',
  'payload_too_large',
  'not_found',
  /** 410: it existed and is no longer kept (an old vault snapshot's proofs: its signed root and totals stay). */
  'gone',
  'conflict',
  'rate_limited',
  'maintenance',
  /** 503: this process is stopping (SIGTERM); nothing of the request ran, retry it (docs/architecture.md). */
  'shutting_down',
  'busy',
  'internal_error',
  'service_unavailable',
  'idempotency_conflict',
  'idempotency_in_progress',
  'bad_origin',
  'bad_envelope',
  /** Any other HTTP failure raised by the framework itself. */
  'http_error',
  // who may do it
  'unauthorized',
  'forbidden',
  'admin_role_required',
  'owner_role_required',
  'owner_required',
  'mfa_required',
  'email_not_verified',
  'user_banned',
  'account_banned',
  'self_excluded',
  'self_dealing',
  'not_sandbox',
  'not_admin',
  'already_admin',
  'owner_protected',
  'cannot_demote_owner',
  'cannot_demote_self',
  'cannot_target_self',
  'user_not_found',
  'username_taken',
  'invalid_password',
  'invalid_code',
  'two_factor_not_enabled',
  // money
  'insufficient_funds',
  'deposit_expired',
  'deposit_limit_reached',
  'deposit_not_pending',
  'payment_provider_error',
  'invalid_signature',
  'idempotency_key_required',
  'idempotency_key_invalid',
  'promo_code_taken',
  'promo_invalid',
  'promo_not_started',
  'promo_expired',
  'promo_own_code',
  // A staff account redeeming a code staff made (every code is): codes are for customers.
  'promo_staff',
  // A staff account as referrer or referee (ADR 0024).
  'referral_staff',
  'promo_account_too_new',
  'promo_bonus_waiting',
  'promo_already_redeemed',
  'promo_limit_reached',
  // catalog and shop
  'name_taken',
  'number_taken',
  'cert_taken',
  // graded slabs (issue 38)
  'cert_on_ungraded',
  'stock_exceeds_slabs',
  'slab_not_in_shop',
  'in_use',
  'invalid_image',
  'unsupported_type',
  'insufficient_stock',
  'product_has_sales',
  'sold_out',
  'class_out_of_stock',
  'no_slots',
  'not_released',
  'purchase_limit_reached',
  'pack_already_opened',
  // vault, buyback, inventory
  'invalid_card_state',
  'not_in_vault',
  // the marketplace (ADR 0028)
  /** 409: the copy is listed on the market; delist it first. */
  'listed',
  /** 409: someone else bought it first (or it was delisted / expired). */
  'listing_sold',
  /** 409: the listing is no longer active, so it cannot be edited or delisted. */
  'listing_closed',
  /** 409: the price (or version) differs from what the buyer saw; nothing moved. */
  'price_changed',
  /** 409: a listing price far from the card's comparables (recent sales, or its value): send confirmFarPrice: true to list it anyway. */
  'price_far_from_comps',
  /** 409: the offer is no longer open (accepted, rejected, cancelled, countered, expired or lapsed); nothing moved. */
  'offer_closed',
  /** 409: the buyer already has an open offer on this listing (or card): change it by cancelling it first. */
  'offer_exists',
  /** 409: card offers are accepted or left to expire: they cannot be rejected or countered (no single seller). */
  'offer_action_unavailable',
  /** 409: the swap is no longer open (accepted, declined, cancelled, expired or stale); nothing moved. */
  'swap_closed',
  /** 409: a copy in the swap moved since it was proposed (sold, listed, shipped, swapped); nothing moved, the swap closed. */
  'swap_stale',
  'nothing_to_sell',
  'quote_changed',
  'out_of_stock',
  // shipping
  'card_unavailable',
  'invalid_shipment_state',
  'too_many_addresses',
  'default_origin',
  'origin_archived',
  // daily drops
  'not_eligible',
  'account_too_new',
  'staff_not_eligible',
  'drop_locked',
  'drop_not_open',
  'drop_closed',
  'drop_cancelled',
  'drop_not_drawn',
  // referrals
  'code_taken',
  'vanity_already_set',
  'already_referred',
  'referral_too_late',
  'self_referral',
  'referral_closed',
  // notifications
  'invalid_link',
  'link_expired',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Codes of Better Auth's own endpoints (/api/auth/*) that the web branches on. They come from
 * the library, in its upper-case style, so they are listed apart from ours.
 */
export const AUTH_ERROR_CODES = [
  'ACCOUNT_TEMPORARILY_LOCKED',
  'BANNED_USER',
  'CREDENTIAL_ACCOUNT_NOT_FOUND',
  'EMAIL_NOT_VERIFIED',
  'INVALID_BACKUP_CODE',
  'INVALID_CODE',
  'INVALID_EMAIL',
  'INVALID_EMAIL_OR_PASSWORD',
  'INVALID_PASSWORD',
  'INVALID_TOKEN',
  'INVALID_TWO_FACTOR_CODE',
  'INVALID_TWO_FACTOR_COOKIE',
  'PASSWORD_COMPROMISED',
  'PASSWORD_TOO_LONG',
  'PASSWORD_TOO_SHORT',
  'TOKEN_EXPIRED',
  'TOTP_CODE_ALREADY_USED',
] as const;
export type AuthErrorCode = (typeof AUTH_ERROR_CODES)[number];

/** What the web's ApiClientError may carry: ours, Better Auth's, or its own when no answer came. */
export type ClientErrorCode = ErrorCode | AuthErrorCode | 'network_error';
