import { queryOptions } from '@tanstack/react-query';

import { api } from './api';

/**
 * The signed-in user's wallet balance: one cache entry that the header, the shop, the vault, shipping
 * and the wallet all read and write (a sale's or shipment's answer sets the new figure here), so they
 * never disagree. It lives outside the features because features do not import each other; the wallet
 * feature re-exports it. Callers add their own options (`retry: false`, `enabled`) by spreading.
 */
export const balanceQueryKey = ['wallet', 'balance'] as const;

export const balanceQuery = queryOptions({
  queryKey: balanceQueryKey,
  queryFn: () => api.get('/api/wallet/balance'),
});
