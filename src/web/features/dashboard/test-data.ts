import type { Dashboard } from '@shared/contracts/dashboard';

/** A full dashboard answer for unit tests and screenshots (matches dashboardSchema). */
export function sampleDashboard(patch: Partial<Dashboard> = {}): Dashboard {
  const days = Array.from({ length: 7 }, (_, i) => new Date(Date.UTC(2025, 2, 4 + i)).toISOString());
  return {
    range: { preset: '7d', from: '2025-03-04T12:00:00.000Z', to: '2025-03-11T12:00:00.000Z', previousFrom: '2025-02-25T12:00:00.000Z', bucket: 'day' },
    figures: {
      depositsCents: { current: 150_000, previous: 120_000 },
      packSalesCents: { current: 98_000, previous: 101_000 },
      buybackPaidCents: { current: 42_000, previous: 30_000 },
      promoCostCents: { current: 1_500, previous: 2_000 },
      referralCostCents: { current: 0, previous: 0 },
      shippingFeesCents: { current: 2_400, previous: 0 },
      revenueCents: { current: 96_500, previous: 99_000 },
      cardCostCents: { current: 92_000, previous: 85_000 },
      grossMarginCents: { current: -1_100, previous: 9_600 },
      netResultCents: { current: -4_100, previous: 12_000 },
      opens: { current: 1_234, previous: 1_100 },
      activeUsers: { current: 310, previous: 290 },
      signUps: { current: 41, previous: 52 },
    },
    result: {
      current: {
        packRevenueCents: 98_000, promoCents: 1_500, revenueCents: 96_500, cardCostCents: 92_000, buybackPaidCents: 42_000,
        returnedToStockCents: 36_400, grossMarginCents: -1_100, marginBps: -114, shippingNetCents: 2_400, referralCents: 0,
        giveawaysCents: 5_400, adjustmentsCents: 0, chargebackCents: 0, netResultCents: -4_100,
      },
      previous: {
        packRevenueCents: 101_000, promoCents: 2_000, revenueCents: 99_000, cardCostCents: 85_000, buybackPaidCents: 30_000,
        returnedToStockCents: 25_600, grossMarginCents: 9_600, marginBps: 970, shippingNetCents: 2_400, referralCents: 0,
        giveawaysCents: 0, adjustmentsCents: 0, chargebackCents: 0, netResultCents: 12_000,
      },
    },
    products: [
      { productId: 'p-fair', name: 'Starter pack', opens: 800, salesCents: 80_000, pulledValueCents: 76_800, realisedRtpBps: 9600, expectedRtpBps: 9550, zScore: 0.42, drift: null,
        cardCostCents: 76_800, buybackPaidCents: 20_000, returnedToStockCents: 17_000, grossMarginCents: 200, marginBps: 25, loss: false },
      { productId: 'p-high', name: 'Rigged booster with a long name to check wrapping', opens: 400, salesCents: 40_000, pulledValueCents: 52_000, realisedRtpBps: 13000, expectedRtpBps: 9000, zScore: 4.12, drift: 'high',
        cardCostCents: 52_000, buybackPaidCents: 20_000, returnedToStockCents: 18_000, grossMarginCents: -14_000, marginBps: -3500, loss: true },
      { productId: 'p-few', name: 'New pack', opens: 12, salesCents: 1_200, pulledValueCents: 2_000, realisedRtpBps: 16667, expectedRtpBps: 9000, zScore: 1.8, drift: null,
        cardCostCents: 2_000, buybackPaidCents: 2_000, returnedToStockCents: 2_800, grossMarginCents: 0, marginBps: 0, loss: true },
    ],
    series: days.map((start, i) => ({ start, salesCents: 10_000 + i * 1_500, buybackCents: 5_000 + i * 700, opens: 150 + i * 10, signUps: 4 + (i % 3), grossMarginCents: (i - 2) * 800 })),
    attention: {
      stock: [
        { kind: 'class', id: 'c1', name: 'Holo rare', remaining: 0, status: 'sold_out' },
        { kind: 'product', id: 'p-few', name: 'New pack', remaining: 3, status: 'low' },
      ],
      shipping: [
        { status: 'requested', count: 4, oldestAgeSeconds: 3 * 86_400 + 4 * 3_600 },
        { status: 'packing', count: 1, oldestAgeSeconds: 5_400 },
      ],
      dropsClosingSoon: [{ id: 'd1', title: 'Friday drop', closesAt: '2025-03-11T15:00:00.000Z', entries: 120 }],
      failedMail: {
        count: 2,
        recent: [{ id: 'm1', to: 'someone.with.a.very.long.address@example.com', subject: 'Your shipment is on its way', attempts: 5, lastError: '550 mailbox unavailable', failedAt: '2025-03-11T10:00:00.000Z' }],
      },
      reconciliation: {
        status: 'failed',
        checkedAt: '2025-03-11T11:00:00.000Z',
        failures: [{ name: 'balances_match_postings', ok: false, details: { mismatched: 1, first: [{ accountId: 'a1', balance: 100, postings: 90 }] } }],
      },
    },
    generatedAt: '2025-03-11T12:00:00.000Z',
    ...patch,
  };
}
