import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AddressInput,
  AdminCancelInput,
  AdvanceShipmentInput,
  BulkAdvanceInput,
  CardLocationInput,
  CreateShipmentInput,
  OriginInput,
  OriginUpdateInput,
  QuoteInput,
  ResolveShipmentInput,
  ShipmentStatus,
  ShippingSettingsInput,
} from '@shared/contracts/shipping';
import { ApiClientError, api, type ApiQuery } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';
import { balanceQuery } from '@web/lib/balance-query';


export type ShipmentQuery = ApiQuery<'/api/shipping/shipments'>;
export type AdminShipmentQuery = ApiQuery<'/api/admin/shipping/shipments'>;

export const shippingKeys = {
  all: ['shipping'] as const,
  options: ['shipping', 'options'] as const,
  addresses: ['shipping', 'addresses'] as const,
  shipments: ['shipping', 'shipments'] as const,
  shipmentList: (q: ShipmentQuery) => ['shipping', 'shipments', 'list', q] as const,
  shipment: (id: string) => ['shipping', 'shipments', 'one', id] as const,
  quote: (q: QuoteInput) => ['shipping', 'quote', q] as const,
  admin: ['admin', 'shipping'] as const,
  adminList: (q: AdminShipmentQuery) => ['admin', 'shipping', 'shipments', 'list', q] as const,
  adminShipment: (id: string) => ['admin', 'shipping', 'shipments', 'one', id] as const,
  pickList: (originId: string) => ['admin', 'shipping', 'pick-list', originId] as const,
  origins: ['admin', 'shipping', 'origins'] as const,
  origin: (id: string) => ['admin', 'shipping', 'origins', id] as const,
  settings: ['admin', 'shipping', 'settings'] as const,
  user: (id: string) => ['admin', 'shipping', 'user', id] as const,
};

// ───────────── user ─────────────

export const optionsQuery = queryOptions({
  queryKey: shippingKeys.options,
  queryFn: ({ signal }) => api.get('/api/shipping/options', { signal }),
  staleTime: 60_000,
});

export const addressesQuery = queryOptions({
  queryKey: shippingKeys.addresses,
  queryFn: ({ signal }) => api.get('/api/shipping/addresses', { signal }),
});

export const shipmentsQuery = (q: ShipmentQuery) =>
  queryOptions({
    queryKey: shippingKeys.shipmentList(q),
    queryFn: ({ signal }) => api.get('/api/shipping/shipments', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const shipmentQuery = (id: string) =>
  queryOptions({
    queryKey: shippingKeys.shipment(id),
    queryFn: ({ signal }) => api.get('/api/shipping/shipments/{id}', { path: { id }, signal }),
  });

export const quoteQuery = (input: QuoteInput, enabled = true) =>
  queryOptions({
    queryKey: shippingKeys.quote(input),
    queryFn: ({ signal }) => api.post('/api/shipping/quote', { body: input, signal }),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useSaveAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: AddressInput }) =>
      id ? api.patch('/api/shipping/addresses/{id}', { path: { id }, body: input }) : api.post('/api/shipping/addresses', { body: input }),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.addresses }),
  });
}

export function useDefaultAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/shipping/addresses/{id}/default', { path: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.addresses }),
  });
}

export function useDeleteAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/shipping/addresses/{id}', { path: { id } }),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.addresses }),
  });
}

/**
 * Confirms a shipment, with the Idempotency-Key of the user's intent (the dialog's useMoneyAction:
 * a retry of the same request after a network failure or a 5xx reuses it, so the server answers
 * the first result and never charges twice).
 */
export function useCreateShipment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ input, key }: { input: CreateShipmentInput; key: string }) =>
      api.post('/api/shipping/shipments', { body: input, idempotencyKey: key }),
    onSuccess: (r) => {
      // A shipment's answer carries the new balance: the header and the shop show it at once.
      qc.setQueryData(balanceQuery.queryKey, (old) => (old ? { ...old, balanceCents: r.balanceCents } : old));
    },
    onSettled: (_data, error) => {
      void qc.invalidateQueries({ queryKey: ['collection'] });
      // After a refusal the quote is re-read (the fee or the cards may have changed). After a
      // success it is not: its cards have just left the vault, so a refetch before the dialog
      // closes would answer 409 and log an error for a shipment that went through.
      void qc.invalidateQueries({ queryKey: shippingKeys.all, predicate: (q) => error !== null || q.queryKey[1] !== 'quote' });
      void qc.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
}

export function useCancelShipment() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/shipping/shipments/{id}/cancel', { path: { id } }),
    onSuccess: (s) => qc.setQueryData(shippingKeys.shipment(s.id), s),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: shippingKeys.all });
      void qc.invalidateQueries({ queryKey: ['collection'] });
      void qc.invalidateQueries({ queryKey: ['wallet'] });
    },
  });
}

export interface ShipmentUpdatedEvent {
  shipmentId: string;
  status: ShipmentStatus;
}

/**
 * Keeps the user's shipping pages live: a status change (by the warehouse, another tab or the
 * user's own cancel) refetches the shipments, the vault and the balance.
 */
export function useShippingLiveUpdates(onEvent?: (e: ShipmentUpdatedEvent) => void) {
  const qc = useQueryClient();
  useRealtimeEvent<ShipmentUpdatedEvent>('shipment.updated', (e) => {
    void qc.invalidateQueries({ queryKey: shippingKeys.shipments });
    void qc.invalidateQueries({ queryKey: shippingKeys.addresses });
    void qc.invalidateQueries({ queryKey: ['collection'] });
    void qc.invalidateQueries({ queryKey: ['wallet'] });
    onEvent?.(e);
  });
}

// ───────────── admin ─────────────

export const adminShipmentsQuery = (q: AdminShipmentQuery) =>
  queryOptions({
    queryKey: shippingKeys.adminList(q),
    queryFn: ({ signal }) => api.get('/api/admin/shipping/shipments', { query: q, signal }),
    placeholderData: keepPreviousData,
  });

export const adminShipmentQuery = (id: string) =>
  queryOptions({
    queryKey: shippingKeys.adminShipment(id),
    queryFn: ({ signal }) => api.get('/api/admin/shipping/shipments/{id}', { path: { id }, signal }),
    retry: (n, err) => !(err instanceof ApiClientError && err.status < 500) && n < 2,
  });

export const pickListQuery = (originId: string) =>
  queryOptions({
    queryKey: shippingKeys.pickList(originId),
    queryFn: ({ signal }) => api.get('/api/admin/shipping/pick-list', { query: { originId }, signal }),
    placeholderData: keepPreviousData,
  });

export const originsQuery = queryOptions({
  queryKey: shippingKeys.origins,
  queryFn: ({ signal }) => api.get('/api/admin/shipping/origins', { signal }),
});

export const originQuery = (id: string) =>
  queryOptions({
    queryKey: shippingKeys.origin(id),
    queryFn: ({ signal }) => api.get('/api/admin/shipping/origins/{id}', { path: { id }, signal }),
    retry: (n, err) => !(err instanceof ApiClientError && err.status < 500) && n < 2,
  });

export const settingsQuery = queryOptions({
  queryKey: shippingKeys.settings,
  queryFn: ({ signal }) => api.get('/api/admin/shipping/settings', { signal }),
});

export const adminUserShippingQuery = (userId: string) =>
  queryOptions({
    queryKey: shippingKeys.user(userId),
    queryFn: ({ signal }) => api.get('/api/admin/shipping/users/{id}', { path: { id: userId }, signal }),
    retry: (n, err) => !(err instanceof ApiClientError && err.status < 500) && n < 2,
  });

/** Every admin change refreshes the whole back-office shipping cache (queue counts, pick list, detail). */
function useAdminMutation<TIn, TOut>(fn: (input: TIn) => Promise<TOut>, onSuccess?: (out: TOut) => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (out) => onSuccess?.(out),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.admin }),
  });
}

export function useAdvanceShipment(id: string) {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: AdvanceShipmentInput) => api.post('/api/admin/shipping/shipments/{id}/advance', { path: { id }, body: input }),
    (s) => qc.setQueryData(shippingKeys.adminShipment(id), s),
  );
}

export function useBulkAdvance() {
  return useAdminMutation((input: BulkAdvanceInput) => api.post('/api/admin/shipping/shipments/bulk-advance', { body: input }));
}

export function useAdminCancel(id: string) {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: AdminCancelInput) => api.post('/api/admin/shipping/shipments/{id}/cancel', { path: { id }, body: input }),
    (s) => qc.setQueryData(shippingKeys.adminShipment(id), s),
  );
}

export function useResolveShipment(id: string) {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: ResolveShipmentInput) => api.post('/api/admin/shipping/shipments/{id}/resolve', { path: { id }, body: input }),
    (s) => qc.setQueryData(shippingKeys.adminShipment(id), s),
  );
}

export function usePick() {
  return useAdminMutation(({ shipmentCardId, picked }: { shipmentCardId: string; picked: boolean }) =>
    api.post('/api/admin/shipping/pick-list/{id}', { path: { id: shipmentCardId }, body: { picked } }),
  );
}

export function useSaveOrigin() {
  return useAdminMutation(({ id, input }: { id: string | null; input: OriginInput | OriginUpdateInput }) =>
    id ? api.patch('/api/admin/shipping/origins/{id}', { path: { id }, body: input }) : api.post('/api/admin/shipping/origins', { body: input }),
  );
}

export function useDefaultOrigin() {
  return useAdminMutation((id: string) => api.post('/api/admin/shipping/origins/{id}/default', { path: { id } }));
}

export function useSetCardLocation() {
  return useAdminMutation(({ cardId, input }: { cardId: string; input: CardLocationInput }) =>
    api.put('/api/admin/shipping/cards/{id}/location', { path: { id: cardId }, body: input }),
  );
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: ShippingSettingsInput) => api.put('/api/admin/shipping/settings', { body: input }),
    (s) => {
      qc.setQueryData(shippingKeys.settings, s);
      void qc.invalidateQueries({ queryKey: shippingKeys.options });
    },
  );
}
