import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import type {
  AdjustBalanceInput,
  AdjustLimits,
  CreatePromoInput,
  Deposit,
  DepositOptions,
  LedgerKind,
  SelfExclusionDuration,
  UpdateLimitsInput,
  UpdatePromoInput,
} from '@shared/contracts/wallet';
import { api } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';

// The balance query is shared with the header and other features (they may not import this one).
export { balanceQuery, balanceQueryKey } from '@web/lib/balance-query';

export const walletKeys = {
  all: ['wallet'] as const,
  depositOptions: ['wallet', 'deposit-options'] as const,
  deposits: (page: number) => ['wallet', 'deposits', page] as const,
  deposit: (id: string) => ['wallet', 'deposit', id] as const,
  history: (f: HistoryFilter) => ['wallet', 'history', f] as const,
  limits: ['wallet', 'limits'] as const,
  adminBalance: (userId: string) => ['admin', 'wallet', userId, 'balance'] as const,
  adminHistory: (userId: string, f: HistoryFilter) => ['admin', 'wallet', userId, 'history', f] as const,
  promos: ['admin', 'promo'] as const,
  promo: (id: string) => ['admin', 'promo', id] as const,
  adjustLimits: ['admin', 'wallet', 'adjust-limits'] as const,
};

export interface HistoryFilter {
  kind?: LedgerKind[];
  from?: string;
  to?: string;
  page: number;
  pageSize: number;
}

export function historyParams(f: Omit<HistoryFilter, 'page' | 'pageSize'> & Partial<HistoryFilter>): string {
  const p = new URLSearchParams();
  if (f.kind?.length) p.set('kind', f.kind.join(','));
  if (f.from) p.set('from', f.from);
  if (f.to) p.set('to', f.to);
  if (f.page) p.set('page', String(f.page));
  if (f.pageSize) p.set('pageSize', String(f.pageSize));
  return p.toString();
}

/** The ledger filter as the history endpoints' query (the same parameters as historyParams). */
function historyQueryOf(f: HistoryFilter) {
  return {
    kind: f.kind?.length ? f.kind.join(',') : undefined,
    from: f.from || undefined,
    to: f.to || undefined,
    page: f.page || undefined,
    pageSize: f.pageSize || undefined,
  };
}

export type DepositOptionsWithBonus = DepositOptions & {
  pendingBonus: { code: string; bonusPercent: number; bonusCapCents: number } | null;
};

export const depositOptionsQuery = queryOptions({
  queryKey: walletKeys.depositOptions,
  queryFn: () => api.get('/api/wallet/deposit-options'),
});

export interface DepositPage {
  deposits: Deposit[];
  page: number;
  pageSize: number;
  total: number;
}

export const depositsQuery = (page: number) =>
  queryOptions({
    queryKey: walletKeys.deposits(page),
    queryFn: () => api.get('/api/wallet/deposits', { query: { page, pageSize: 10 } }),
    placeholderData: keepPreviousData,
  });

export const depositQuery = (id: string) =>
  queryOptions({
    queryKey: walletKeys.deposit(id),
    queryFn: async () => (await api.get('/api/wallet/deposits/{id}', { path: { id } })).deposit,
  });

export const historyQuery = (f: HistoryFilter) =>
  queryOptions({
    queryKey: walletKeys.history(f),
    queryFn: () => api.get('/api/wallet/history', { query: historyQueryOf(f) }),
    placeholderData: keepPreviousData,
  });

/** The signed-in user's ledger, or (with userId) a user's ledger as an admin sees it. */
export const ledgerQuery = (userId: string | undefined, f: HistoryFilter) =>
  queryOptions({
    queryKey: userId ? [...walletKeys.adminHistory(userId, f)] : [...walletKeys.history(f)],
    queryFn: () =>
      userId
        ? api.get('/api/admin/users/{id}/history', { path: { id: userId }, query: historyQueryOf(f) })
        : api.get('/api/wallet/history', { query: historyQueryOf(f) }),
    placeholderData: keepPreviousData,
  });

export const limitsQuery = queryOptions({
  queryKey: walletKeys.limits,
  queryFn: () => api.get('/api/wallet/limits'),
});

export const adminBalanceQuery = (userId: string) =>
  queryOptions({
    queryKey: walletKeys.adminBalance(userId),
    queryFn: () => api.get('/api/admin/users/{id}/balance', { path: { id: userId } }),
  });

export const adminHistoryQuery = (userId: string, f: HistoryFilter) =>
  queryOptions({
    queryKey: walletKeys.adminHistory(userId, f),
    queryFn: () => api.get('/api/admin/users/{id}/history', { path: { id: userId }, query: historyQueryOf(f) }),
    placeholderData: keepPreviousData,
  });

export const adjustLimitsQuery = queryOptions({
  queryKey: walletKeys.adjustLimits,
  queryFn: () => api.get('/api/admin/wallet/adjust-limits'),
});

export const promosQuery = queryOptions({
  queryKey: walletKeys.promos,
  queryFn: async () => (await api.get('/api/admin/promo')).promos,
});

export const promoQuery = (id: string) =>
  queryOptions({
    queryKey: walletKeys.promo(id),
    queryFn: () => api.get('/api/admin/promo/{id}', { path: { id } }),
  });

export const walletApi = {
  startDeposit: (amountCents: number, key: string, returnPath?: string) =>
    api.post('/api/wallet/deposits', { body: returnPath ? { amountCents, returnPath } : { amountCents }, idempotencyKey: key }),
  sandboxPay: (depositId: string, key: string) =>
    api.post('/api/payments/sandbox/deposits/{id}/pay', { path: { id: depositId }, idempotencyKey: key }),
  sandboxDecline: (depositId: string) =>
    api.post('/api/payments/sandbox/deposits/{id}/decline', { path: { id: depositId } }),
  redeemPromo: (code: string, key: string) =>
    api.post('/api/wallet/promo/redeem', { body: { code }, idempotencyKey: key }),
  updateLimits: (input: UpdateLimitsInput) => api.put('/api/wallet/limits', { body: input }),
  selfExclude: (duration: SelfExclusionDuration) =>
    api.post('/api/wallet/self-exclusion', { body: { duration, confirm: true } }),
  adjust: (userId: string, input: AdjustBalanceInput, key: string) =>
    api.post('/api/admin/users/{id}/balance/adjust', { path: { id: userId }, body: input, idempotencyKey: key }),
  setAdjustLimits: (input: AdjustLimits) => api.put('/api/admin/wallet/adjust-limits', { body: input }),
  createPromo: (input: CreatePromoInput) => api.post('/api/admin/promo', { body: input }),
  updatePromo: (id: string, input: UpdatePromoInput) =>
    api.patch('/api/admin/promo/{id}', { path: { id }, body: input }),
};

/** Refreshes every wallet query (balance, history, deposits) when the server says the balance changed. */
export function useWalletLiveUpdates() {
  const qc = useQueryClient();
  useRealtimeEvent('balance.changed', () => {
    void qc.invalidateQueries({ queryKey: walletKeys.all });
  });
}
