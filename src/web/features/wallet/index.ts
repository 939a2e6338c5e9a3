/** The wallet feature: balance, deposits, promo codes, history and responsible play. */
export { ResponsiblePlaySection } from './responsible-play';
export { BalanceSummary } from './balance-summary';
export { DepositPanel } from './deposit-panel';
export { TopUpDifference } from './top-up-difference';
export { DepositHistory, DepositReceipt } from './deposit-history';
export { PromoRedeem } from './promo-redeem';
export { LedgerView } from './ledger-view';
export { SandboxCheckout } from './sandbox-checkout';
export { AdminBalance } from './admin-balance';
export { AdminPromoList, AdminPromoDetail } from './admin-promo';
export { TestModeBadge, TestModeBanner } from './test-mode';
export { useWalletLiveUpdates, balanceQuery, balanceQueryKey } from './api';
