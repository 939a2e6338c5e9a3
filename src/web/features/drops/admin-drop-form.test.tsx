import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import type { AdminDrop } from '@shared/contracts/drops';
import { ApiClientError } from '@web/lib/api';
import { applyDropError, dropFormResolver, newDropDefaults, toCreateInput, toUpdateInput, type DropFormValues } from './admin-drop-form';

/** The drop form's checks: the shared contract over the converted fields, errors on the right field. */

const CARD = '00000000-0000-4000-8000-000000000001';
const prize = (quantity: number) => ({ cardId: CARD, quantity, name: 'Ember Drake', detail: 'Core #1', stock: 4 });

function values(patch: Partial<DropFormValues> = {}): DropFormValues {
  return { ...newDropDefaults(Date.parse('2030-01-01T10:00:00Z')), title: 'Friday drop', prizes: [prize(2)], ...patch };
}

async function errorsOf(v: DropFormValues, existing: AdminDrop | null = null) {
  const r = await dropFormResolver(existing)(v, undefined, { fields: {}, shouldUseNativeValidation: false });
  const e = r.errors as Record<string, { message?: string } | Array<{ quantity?: { message?: string } }>>;
  const flat: Record<string, string | undefined> = {};
  for (const [k, val] of Object.entries(e)) {
    if (Array.isArray(val)) val.forEach((item, i) => item?.quantity && (flat[`${k}.${i}.quantity`] = item.quantity.message));
    else flat[k] = val?.message ?? (val as { root?: { message?: string } }).root?.message;
  }
  return flat;
}

const openDrop = {
  id: 'd1',
  status: 'open',
  opensAt: '2030-01-01T10:00:00.000Z',
  closesAt: '2030-01-02T10:00:00.000Z',
} as AdminDrop;

describe('drop form', () => {
  it('accepts a valid drop and sends local times as instants', async () => {
    const v = values({ opensAt: '2030-01-01T12:00', closesAt: '2030-01-02T12:00' });
    expect(await errorsOf(v)).toEqual({});
    const input = toCreateInput(v);
    expect(input.opensAt).toBe(new Date('2030-01-01T12:00').toISOString());
    expect(input.prizes).toEqual([{ cardId: CARD, quantity: 2 }]);
  });

  it('puts a close before the open on Closes, too many winners on Winners, and no prize on the prizes', async () => {
    expect(await errorsOf(values({ opensAt: '2030-01-02T12:00', closesAt: '2030-01-01T12:00' }))).toMatchObject({
      closesAt: 'The drop must close after it opens.',
    });
    expect(await errorsOf(values({ winnerCount: 3 }))).toMatchObject({ winnerCount: expect.stringMatching(/More winners than prizes: 2 prize cards for 3 winners/) });
    expect(await errorsOf(values({ prizes: [] }))).toMatchObject({ prizes: 'A drop needs at least one prize card.' });
    expect(await errorsOf(values({ winnerCount: Number.NaN, title: ' ' }))).toMatchObject({ winnerCount: 'A whole number of winners.', title: 'Give the drop a title.' });
    expect(await errorsOf(values({ prizes: [prize(0)], winnerCount: 0 }))).toMatchObject({ 'prizes.0.quantity': 'At least one copy.' });
  });

  it('checks the recurring template fields in daily mode', async () => {
    expect(await errorsOf(values({ mode: 'daily', openTime: '25:00', durationMinutes: 2 }))).toMatchObject({
      openTime: 'A UTC time like 12:00.',
      durationMinutes: 'At least 5 minutes.',
    });
  });

  it('lets an open drop be extended, never shortened, and sends none of its locked terms', async () => {
    // The winner count is locked once open: not sent, so not checked either.
    const v = values({ winnerCount: 99 });
    const local = (iso: string) => {
      const d = new Date(iso);
      const p = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
    };
    expect(await errorsOf({ ...v, closesAt: local('2030-01-02T09:00:00Z') }, openDrop)).toMatchObject({
      closesAt: 'An open drop may be extended, not shortened.',
    });
    const extended = { ...v, closesAt: local('2030-01-03T10:00:00Z') };
    expect(await errorsOf(extended, openDrop)).toEqual({});
    expect(Object.keys(toUpdateInput(extended, openDrop)).sort()).toEqual(['closesAt', 'description', 'imageKey', 'title']);
    // A close left as it was is not sent (the input has no seconds).
    expect(toUpdateInput({ ...v, closesAt: local(openDrop.closesAt) }, openDrop)).not.toHaveProperty('closesAt');
  });

  it("puts out_of_stock on the short card's copies and server field messages on their fields", () => {
    const { result } = renderHook(() => {
      const form = useForm<DropFormValues>({ defaultValues: values({ prizes: [prize(1), { ...prize(9), cardId: 'c2', name: 'Tide Serpent' }] }) });
      // Subscribes to the errors, as the form's render does.
      void form.formState.errors;
      return form;
    });
    act(() => applyDropError(new ApiClientError(409, 'out_of_stock', 'Not enough stock of Tide Serpent: 4 left, the drop needs 9. Nothing was scheduled.'), result.current));
    expect(result.current.getFieldState('prizes.1.quantity').error?.message).toMatch(/Tide Serpent: 4 left/);
    act(() => applyDropError(new ApiClientError(400, 'validation_failed', 'The closing time has already passed.', { closesAt: ['Choose a closing time in the future.'] }), result.current));
    expect(result.current.getFieldState('closesAt').error?.message).toBe('Choose a closing time in the future.');
    act(() => applyDropError(new ApiClientError(409, 'drop_locked', 'This drop is closed; it can no longer be edited.'), result.current));
    expect(result.current.formState.errors.root?.message).toBe('This drop is closed; it can no longer be edited.');
  });
});
