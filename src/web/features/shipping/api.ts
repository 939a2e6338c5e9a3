import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import type {
  Address,
  AddressDeleteResult,
  AddressInput,
  AddressList,
  AdminCancelInput,
  AdminShipment,
  AdminShipmentList,
  AdminShipmentQuery,
  AdminUserShipping,
  AdvanceShipmentInput,
  BulkAdvanceInput,
  BulkAdvanceResult,
  CardLocation,
  CardLocationInput,
  CreateShipmentInput,
  CreateShipmentResult,
  Origin,
  OriginInput,
  OriginList,
  OriginUpdateInput,
  PickItem,
  PickList,
  Quote,
  QuoteInput,
  ResolveShipmentInput,
  Shipment,
  ShipmentList,
  ShipmentQuery,
  ShipmentStatus,
  ShippingOptions,
  ShippingSettings,
  ShippingSettingsInput,
} from '@shared/contracts/shipping';
import { ApiClientError, api, newIdempotencyKey } from '@web/lib/api';
import { useRealtimeEvent } from '@web/lib/realtime';

/** Builds ?a=1&b=2 from defined, non-empty values. */
function qs(params: object): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === '') continue;
    u.set(k, String(v));
  }
  const s = u.toString();
  return s ? `?${s}` : '';
}
const enc = encodeURIComponent;

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

/** The wallet's balance query (the header reads it): a shipment's answer carries the new balance. */
const BALANCE_KEY = ['wallet', 'balance'] as const;

// ───────────── user ─────────────

export const optionsQuery = queryOptions({
  queryKey: shippingKeys.options,
  queryFn: ({ signal }) => api.get<ShippingOptions>('/api/shipping/options', { signal }),
  staleTime: 60_000,
});

export const addressesQuery = queryOptions({
  queryKey: shippingKeys.addresses,
  queryFn: ({ signal }) => api.get<AddressList>('/api/shipping/addresses', { signal }),
});

export const shipmentsQuery = (q: ShipmentQuery) =>
  queryOptions({
    queryKey: shippingKeys.shipmentList(q),
    queryFn: ({ signal }) => api.get<ShipmentList>(`/api/shipping/shipments${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const shipmentQuery = (id: string) =>
  queryOptions({
    queryKey: shippingKeys.shipment(id),
    queryFn: ({ signal }) => api.get<Shipment>(`/api/shipping/shipments/${enc(id)}`, { signal }),
  });

export const quoteQuery = (input: QuoteInput, enabled = true) =>
  queryOptions({
    queryKey: shippingKeys.quote(input),
    queryFn: ({ signal }) => api.post<Quote>('/api/shipping/quote', input, { signal }),
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
      id ? api.patch<Address>(`/api/shipping/addresses/${enc(id)}`, input) : api.post<Address>('/api/shipping/addresses', input),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.addresses }),
  });
}

export function useDefaultAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<Address>(`/api/shipping/addresses/${enc(id)}/default`),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.addresses }),
  });
}

export function useDeleteAddress() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete<AddressDeleteResult>(`/api/shipping/addresses/${enc(id)}`),
    onSettled: () => qc.invalidateQueries({ queryKey: shippingKeys.addresses }),
  });
}

/**
 * Confirms a shipment. One Idempotency-Key per intent: a retry of the same request after a
 * network failure or a 5xx reuses it (the server answers the first result, never charges twice);
 * a changed request, a success or a definitive refusal starts a new one.
 */
export function useCreateShipment() {
  const qc = useQueryClient();
  const pending = useRef<{ body: string; key: string } | null>(null);
  const keyFor = useCallback((input: CreateShipmentInput) => {
    const body = JSON.stringify(input);
    if (pending.current?.body !== body) pending.current = { body, key: newIdempotencyKey() };
    return pending.current.key;
  }, []);
  return useMutation({
    mutationFn: (input: CreateShipmentInput) =>
      api.post<CreateShipmentResult>('/api/shipping/shipments', input, { idempotencyKey: keyFor(input) }),
    onSuccess: (r) => {
      pending.current = null;
      qc.setQueryData<{ balanceCents: number }>(BALANCE_KEY, (old) => (old ? { ...old, balanceCents: r.balanceCents } : old));
    },
    onError: (err) => {
      const retryable = err instanceof ApiClientError && (err.status === 0 || err.status >= 500);
      if (!retryable) pending.current = null;
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
    mutationFn: (id: string) => api.post<Shipment>(`/api/shipping/shipments/${enc(id)}/cancel`),
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
    queryFn: ({ signal }) => api.get<AdminShipmentList>(`/api/admin/shipping/shipments${qs(q)}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const adminShipmentQuery = (id: string) =>
  queryOptions({
    queryKey: shippingKeys.adminShipment(id),
    queryFn: ({ signal }) => api.get<AdminShipment>(`/api/admin/shipping/shipments/${enc(id)}`, { signal }),
    retry: (n, err) => !(err instanceof ApiClientError && err.status < 500) && n < 2,
  });

export const pickListQuery = (originId: string) =>
  queryOptions({
    queryKey: shippingKeys.pickList(originId),
    queryFn: ({ signal }) => api.get<PickList>(`/api/admin/shipping/pick-list${qs({ originId })}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const originsQuery = queryOptions({
  queryKey: shippingKeys.origins,
  queryFn: ({ signal }) => api.get<OriginList>('/api/admin/shipping/origins', { signal }),
});

export const originQuery = (id: string) =>
  queryOptions({
    queryKey: shippingKeys.origin(id),
    queryFn: ({ signal }) => api.get<Origin>(`/api/admin/shipping/origins/${enc(id)}`, { signal }),
    retry: (n, err) => !(err instanceof ApiClientError && err.status < 500) && n < 2,
  });

export const settingsQuery = queryOptions({
  queryKey: shippingKeys.settings,
  queryFn: ({ signal }) => api.get<ShippingSettings>('/api/admin/shipping/settings', { signal }),
});

export const adminUserShippingQuery = (userId: string) =>
  queryOptions({
    queryKey: shippingKeys.user(userId),
    queryFn: ({ signal }) => api.get<AdminUserShipping>(`/api/admin/shipping/users/${enc(userId)}`, { signal }),
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
    (input: AdvanceShipmentInput) => api.post<AdminShipment>(`/api/admin/shipping/shipments/${enc(id)}/advance`, input),
    (s) => qc.setQueryData(shippingKeys.adminShipment(id), s),
  );
}

export function useBulkAdvance() {
  return useAdminMutation((input: BulkAdvanceInput) => api.post<BulkAdvanceResult>('/api/admin/shipping/shipments/bulk-advance', input));
}

export function useAdminCancel(id: string) {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: AdminCancelInput) => api.post<AdminShipment>(`/api/admin/shipping/shipments/${enc(id)}/cancel`, input),
    (s) => qc.setQueryData(shippingKeys.adminShipment(id), s),
  );
}

export function useResolveShipment(id: string) {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: ResolveShipmentInput) => api.post<AdminShipment>(`/api/admin/shipping/shipments/${enc(id)}/resolve`, input),
    (s) => qc.setQueryData(shippingKeys.adminShipment(id), s),
  );
}

export function usePick() {
  return useAdminMutation(({ shipmentCardId, picked }: { shipmentCardId: string; picked: boolean }) =>
    api.post<PickItem>(`/api/admin/shipping/pick-list/${enc(shipmentCardId)}`, { picked }),
  );
}

export function useSaveOrigin() {
  return useAdminMutation(({ id, input }: { id: string | null; input: OriginInput | OriginUpdateInput }) =>
    id ? api.patch<Origin>(`/api/admin/shipping/origins/${enc(id)}`, input) : api.post<Origin>('/api/admin/shipping/origins', input),
  );
}

export function useDefaultOrigin() {
  return useAdminMutation((id: string) => api.post<Origin>(`/api/admin/shipping/origins/${enc(id)}/default`));
}

export function useSetCardLocation() {
  return useAdminMutation(({ cardId, input }: { cardId: string; input: CardLocationInput }) =>
    api.put<CardLocation>(`/api/admin/shipping/cards/${enc(cardId)}/location`, input),
  );
}

export function useSaveSettings() {
  const qc = useQueryClient();
  return useAdminMutation(
    (input: ShippingSettingsInput) => api.put<ShippingSettings>('/api/admin/shipping/settings', input),
    (s) => {
      qc.setQueryData(shippingKeys.settings, s);
      void qc.invalidateQueries({ queryKey: shippingKeys.options });
    },
  );
}
