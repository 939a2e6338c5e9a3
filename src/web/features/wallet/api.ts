import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type {
  AdjustBalanceInput,
  AdjustLimits,
  AdjustLimitsView,
  AdminBalance,
  Balance,
  CreatePromoInput,
  Deposit,
  DepositOptions,
  HistoryPage,
  LedgerKind,
  Limits,
  Promo,
  PromoDetail,
  RedeemPromoResponse,
  SelfExclusionDuration,
  UpdateLimitsInput,
  UpdatePromoInput,
} from '@shared/contracts/wallet';
import { api, ApiClientError, newIdempotencyKey } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';

/** Same key as the header balance (layouts/header-balance.tsx), so both update together. */
export const balanceQueryKey = ['wallet', 'balance'] as const;

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

export const balanceQuery = queryOptions({
  queryKey: balanceQueryKey,
  queryFn: () => api.get<Balance>('/api/wallet/balance'),
});

export type DepositOptionsWithBonus = DepositOptions & {
  pendingBonus: { code: string; bonusPercent: number; bonusCapCents: number } | null;
};

export const depositOptionsQuery = queryOptions({
  queryKey: walletKeys.depositOptions,
  queryFn: () => api.get<DepositOptionsWithBonus>('/api/wallet/deposit-options'),
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
    queryFn: () => api.get<DepositPage>(`/api/wallet/deposits?page=${page}&pageSize=10`),
    placeholderData: keepPreviousData,
  });

export const depositQuery = (id: string) =>
  queryOptions({
    queryKey: walletKeys.deposit(id),
    queryFn: async () => (await api.get<{ deposit: Deposit }>(`/api/wallet/deposits/${encodeURIComponent(id)}`)).deposit,
  });

export const historyQuery = (f: HistoryFilter) =>
  queryOptions({
    queryKey: walletKeys.history(f),
    queryFn: () => api.get<HistoryPage>(`/api/wallet/history?${historyParams(f)}`),
    placeholderData: keepPreviousData,
  });

/** The signed-in user's ledger, or (with userId) a user's ledger as an admin sees it. */
export const ledgerQuery = (userId: string | undefined, f: HistoryFilter) =>
  queryOptions<HistoryPage>({
    queryKey: userId ? [...walletKeys.adminHistory(userId, f)] : [...walletKeys.history(f)],
    queryFn: () =>
      api.get<HistoryPage>(
        userId ? `/api/admin/users/${encodeURIComponent(userId)}/history?${historyParams(f)}` : `/api/wallet/history?${historyParams(f)}`,
      ),
    placeholderData: keepPreviousData,
  });

export const limitsQuery = queryOptions({
  queryKey: walletKeys.limits,
  queryFn: () => api.get<Limits>('/api/wallet/limits'),
});

export const adminBalanceQuery = (userId: string) =>
  queryOptions({
    queryKey: walletKeys.adminBalance(userId),
    queryFn: () => api.get<AdminBalance>(`/api/admin/users/${encodeURIComponent(userId)}/balance`),
  });

export const adminHistoryQuery = (userId: string, f: HistoryFilter) =>
  queryOptions({
    queryKey: walletKeys.adminHistory(userId, f),
    queryFn: () =>
      api.get<HistoryPage>(`/api/admin/users/${encodeURIComponent(userId)}/history?${historyParams(f)}`),
    placeholderData: keepPreviousData,
  });

export const adjustLimitsQuery = queryOptions({
  queryKey: walletKeys.adjustLimits,
  queryFn: () => api.get<AdjustLimitsView>('/api/admin/wallet/adjust-limits'),
});

export const promosQuery = queryOptions({
  queryKey: walletKeys.promos,
  queryFn: async () => (await api.get<{ promos: Promo[] }>('/api/admin/promo')).promos,
});

export const promoQuery = (id: string) =>
  queryOptions({
    queryKey: walletKeys.promo(id),
    queryFn: () => api.get<PromoDetail>(`/api/admin/promo/${encodeURIComponent(id)}`),
  });

/**
 * One Idempotency-Key per user intent: the same body retried after a network failure or a
 * server error reuses the key (so it cannot charge twice); a changed body, a success or a
 * definitive refusal (4xx) starts a new one.
 */
export function useIdempotencyKey() {
  const ref = useRef<{ key: string; body: string } | null>(null);
  const keyFor = useCallback((body: unknown) => {
    const s = JSON.stringify(body ?? null);
    if (!ref.current || ref.current.body !== s) ref.current = { key: newIdempotencyKey(), body: s };
    return ref.current.key;
  }, []);
  const settle = useCallback((err?: unknown) => {
    const retryable = err instanceof ApiClientError && (err.status === 0 || err.status >= 500);
    if (!retryable) ref.current = null;
  }, []);
  return { keyFor, settle };
}

/** Runs `fn` with a key for `body`, then settles the key by the outcome. */
export function useIdempotent<TBody, TResult>(fn: (body: TBody, key: string) => Promise<TResult>) {
  const { keyFor, settle } = useIdempotencyKey();
  return useCallback(
    async (body: TBody) => {
      try {
        const r = await fn(body, keyFor(body));
        settle();
        return r;
      } catch (err) {
        settle(err);
        throw err;
      }
    },
    [fn, keyFor, settle],
  );
}

export const walletApi = {
  startDeposit: (amountCents: number, key: string, returnPath?: string) =>
    api.post<{ deposit: Deposit; checkoutUrl: string }>(
      '/api/wallet/deposits',
      returnPath ? { amountCents, returnPath } : { amountCents },
      { idempotencyKey: key },
    ),
  sandboxPay: (depositId: string, key: string) =>
    api.post<{ deposit: Deposit; balanceCents: number }>(
      `/api/payments/sandbox/deposits/${encodeURIComponent(depositId)}/pay`,
      undefined,
      { idempotencyKey: key },
    ),
  sandboxDecline: (depositId: string) =>
    api.post<{ deposit: Deposit }>(`/api/payments/sandbox/deposits/${encodeURIComponent(depositId)}/decline`),
  redeemPromo: (code: string, key: string) =>
    api.post<RedeemPromoResponse>('/api/wallet/promo/redeem', { code }, { idempotencyKey: key }),
  updateLimits: (input: UpdateLimitsInput) => api.put<Limits>('/api/wallet/limits', input),
  selfExclude: (duration: SelfExclusionDuration) =>
    api.post<Limits>('/api/wallet/self-exclusion', { duration, confirm: true }),
  adjust: (userId: string, input: AdjustBalanceInput, key: string) =>
    api.post<{ balanceCents: number; entryId: string }>(
      `/api/admin/users/${encodeURIComponent(userId)}/balance/adjust`,
      input,
      { idempotencyKey: key },
    ),
  setAdjustLimits: (input: AdjustLimits) => api.put<AdjustLimitsView>('/api/admin/wallet/adjust-limits', input),
  createPromo: (input: CreatePromoInput) => api.post<{ promo: Promo }>('/api/admin/promo', input),
  updatePromo: (id: string, input: UpdatePromoInput) =>
    api.patch<{ promo: Promo }>(`/api/admin/promo/${encodeURIComponent(id)}`, input),
};

/** Refreshes every wallet query (balance, history, deposits) when the server says the balance changed. */
export function useWalletLiveUpdates() {
  const qc = useQueryClient();
  useRealtimeEvent('balance.changed', () => {
    void qc.invalidateQueries({ queryKey: walletKeys.all });
  });
}
