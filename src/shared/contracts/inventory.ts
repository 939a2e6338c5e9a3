import { z } from 'zod';
import { pageSchema, pageSizeSchema, pagedSchema } from './paging.ts';
import type { OwnedCardStatus } from './shop.ts';

/**
 * Inventory (issue 14): the one state machine of an owned copy, and the stock movement log.
 * The server's inventory module checks every move against MOVES; the web may read the same table
 * to offer only the actions a copy's state allows.
 */

export const STOCK_MOVEMENT_REASONS = [
  'initial',
  'admin_adjust',
  'csv_import',
  'pack_open',
  'grant',
  'drop',
  'buyback_return',
  'revoke',
  'ship',
  'ship_cancel',
  'ship_dispatch',
  'ship_deliver',
  'drop_reserve',
  'drop_release',
  'ship_return',
  'ship_lost',
  // The marketplace (issue 43): a copy listed, delisted (or expired) and sold to another collector.
  'market_list',
  'market_delist',
  'market_sale',
  // A copy that changed owner in a swap between two collectors (ADR 0032).
  'market_swap',
] as const;
export type StockMovementReason = (typeof STOCK_MOVEMENT_REASONS)[number];

/** Reasons that add copies to (or remove them from) what the shop owns at all; the others move copies between stock and vaults. */
export const SUPPLY_REASONS = ['initial', 'admin_adjust', 'csv_import'] as const satisfies readonly StockMovementReason[];

/**
 * Copies set aside from stock for a scheduled daily drop (taken when it is scheduled, given back
 * when it is cancelled or a prize is not awarded, or when a winner's copy is made from it): out of
 * stock, in nobody's vault. Reconciliation counts −Σδ of these as reserved.
 */
export const RESERVE_REASONS = ['drop_reserve', 'drop_release'] as const satisfies readonly StockMovementReason[];

/** States in which a copy is owned by a user and out of stock (reconciliation counts them). */
export const OUT_OF_STOCK_STATES = ['in_vault', 'listed', 'in_shipment', 'shipped', 'delivered', 'lost'] as const satisfies readonly OwnedCardStatus[];

export interface CardMove {
  /** States a copy may be in for this move; null: a new copy, taken from stock. */
  from: readonly OwnedCardStatus[] | null;
  to: OwnedCardStatus;
  /** Stock change per copy. */
  stockDelta: -1 | 0 | 1;
  reason: StockMovementReason;
}

/** Every move an owned copy can make. Anything else is refused (409 invalid_card_state). */
export const MOVES = {
  open: { from: null, to: 'in_vault', stockDelta: -1, reason: 'pack_open' },
  grant: { from: null, to: 'in_vault', stockDelta: -1, reason: 'grant' },
  drop: { from: null, to: 'in_vault', stockDelta: -1, reason: 'drop' },
  ship: { from: ['in_vault'], to: 'in_shipment', stockDelta: 0, reason: 'ship' },
  cancelShipment: { from: ['in_shipment'], to: 'in_vault', stockDelta: 0, reason: 'ship_cancel' },
  dispatch: { from: ['in_shipment'], to: 'shipped', stockDelta: 0, reason: 'ship_dispatch' },
  deliver: { from: ['shipped'], to: 'delivered', stockDelta: 0, reason: 'ship_deliver' },
  // A parcel back from the carrier (returned to sender, or a lost one the house makes good).
  returnShipment: { from: ['shipped'], to: 'in_vault', stockDelta: 0, reason: 'ship_return' },
  // Lost in the post and refunded: the copy is gone, like a delivered one (out of stock for good).
  loseShipment: { from: ['shipped'], to: 'lost', stockDelta: 0, reason: 'ship_lost' },
  sellBack: { from: ['in_vault'], to: 'sold_back', stockDelta: 1, reason: 'buyback_return' },
  revoke: { from: ['in_vault'], to: 'revoked', stockDelta: 1, reason: 'revoke' },
  // The marketplace (ADR 0028): a listed copy stays in the vault, out of every other move until delisted.
  list: { from: ['in_vault'], to: 'listed', stockDelta: 0, reason: 'market_list' },
  delist: { from: ['listed'], to: 'in_vault', stockDelta: 0, reason: 'market_delist' },
} as const satisfies Record<string, CardMove>;
export type MoveName = keyof typeof MOVES;
/** Moves of an existing copy (the others create one). */
export type CopyMoveName = { [K in MoveName]: (typeof MOVES)[K]['from'] extends null ? never : K }[MoveName];

/** Whether a copy in `from` may take `move`. */
export function canMove(from: OwnedCardStatus, move: MoveName): boolean {
  const allowed = MOVES[move].from as readonly OwnedCardStatus[] | null;
  return allowed !== null && allowed.includes(from);
}

export const stockMovementSchema = z.object({
  id: z.string(),
  cardId: z.string(),
  delta: z.number().int(),
  stockAfter: z.number().int(),
  reason: z.enum(STOCK_MOVEMENT_REASONS),
  referenceType: z.string().nullable(),
  referenceId: z.string().nullable(),
  note: z.string().nullable(),
  actorId: z.string().nullable(),
  createdAt: z.string(),
});
export type StockMovement = z.infer<typeof stockMovementSchema>;

export const stockMovementQuerySchema = z.object({ page: pageSchema, pageSize: pageSizeSchema(50, 200) });

export const stockMovementListSchema = pagedSchema(stockMovementSchema);

export const stockReconcileSchema = z.object({
  ok: z.boolean(),
  details: z.object({
    cards: z.number().int(),
    mismatches: z.number().int(),
    /** The first mismatching cards (at most 100). */
    sample: z.array(
      z.object({
        cardId: z.string(),
        stock: z.number().int(),
        movementsNet: z.number().int(),
        supply: z.number().int(),
        ownedOut: z.number().int(),
        /** Copies set aside for daily drops (RESERVE_REASONS). */
        reserved: z.number().int(),
        /** A graded card's slabs in stock (its stock must equal it); null for a raw card. */
        slabsInStock: z.number().int().nullable(),
      }),
    ),
  }),
});
export type StockReconcile = z.infer<typeof stockReconcileSchema>;

/** Every state a copy can be in (for tests walking the whole table). */
export const OWNED_CARD_STATUSES_FOR_TESTS = ['in_vault', 'in_shipment', 'shipped', 'delivered', 'sold_back', 'revoked', 'lost', 'listed'] as const satisfies readonly OwnedCardStatus[];
