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
      netResultCents: { current: -4_100, previous: 12_000 },
      opens: { current: 1_234, previous: 1_100 },
      activeUsers: { current: 310, previous: 290 },
      signUps: { current: 41, previous: 52 },
    },
    products: [
      { productId: 'p-fair', name: 'Starter pack', opens: 800, salesCents: 80_000, pulledValueCents: 76_800, realisedRtpBps: 9600, expectedRtpBps: 9550, zScore: 0.42, drift: null },
      { productId: 'p-high', name: 'Rigged booster with a long name to check wrapping', opens: 400, salesCents: 40_000, pulledValueCents: 52_000, realisedRtpBps: 13000, expectedRtpBps: 9000, zScore: 4.12, drift: 'high' },
      { productId: 'p-few', name: 'New pack', opens: 12, salesCents: 1_200, pulledValueCents: 2_000, realisedRtpBps: 16667, expectedRtpBps: 9000, zScore: 1.8, drift: null },
    ],
    series: days.map((start, i) => ({ start, salesCents: 10_000 + i * 1_500, buybackCents: 5_000 + i * 700, opens: 150 + i * 10, signUps: 4 + (i % 3) })),
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
