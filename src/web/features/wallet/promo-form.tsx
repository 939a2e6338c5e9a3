import { useState, type FormEvent } from 'react';
import type { CreatePromoInput, Promo, PromoKind, UpdatePromoInput } from '@shared/contracts/wallet';
import { createPromoSchema, updatePromoSchema } from '@shared/contracts/wallet';
import { parseMoney } from '@shared/money';
import { Button, Checkbox, FormField, Input, Notice, Select } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';

type Fields = {
  code: string;
  kind: PromoKind;
  description: string;
  amount: string;
  bonusPercent: string;
  bonusCap: string;
  startsAt: string;
  endsAt: string;
  totalLimit: string;
  minAccountAgeDays: string;
  active: boolean;
};

function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
const money = (c: number | null) => (c === null ? '' : (c / 100).toFixed(2));

function initial(p?: Promo): Fields {
  return {
    code: p?.code ?? '',
    kind: p?.kind ?? 'credit',
    description: p?.description ?? '',
    amount: money(p?.amountCents ?? null),
    bonusPercent: p?.bonusPercent?.toString() ?? '',
    bonusCap: money(p?.bonusCapCents ?? null),
    startsAt: toLocalInput(p?.startsAt ?? null),
    endsAt: toLocalInput(p?.endsAt ?? null),
    totalLimit: p?.totalLimit?.toString() ?? '',
    minAccountAgeDays: p?.minAccountAgeDays?.toString() ?? '',
    active: p?.active ?? true,
  };
}

const intOrNull = (s: string) => (s.trim() === '' ? null : Number(s));
const moneyOrNull = (s: string) => (s.trim() === '' ? null : (parseMoney(s) ?? Number.NaN));
const dateOrNull = (s: string) => (s ? new Date(s).toISOString() : null);

const FIELD_OF: Record<string, keyof Fields> = {
  amountCents: 'amount',
  bonusCapCents: 'bonusCap',
};

export interface PromoFormProps {
  promo?: Promo;
  submitLabel: string;
  onSubmit: (input: CreatePromoInput | UpdatePromoInput) => Promise<unknown>;
}

/** Create (no promo) or edit a promo code. Code and kind are fixed once created. */
export function PromoForm({ promo, submitLabel, onSubmit }: PromoFormProps) {
  const [f, setF] = useState<Fields>(() => initial(promo));
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof Fields>(k: K, v: Fields[K]) => setF((old) => ({ ...old, [k]: v }));
  const editing = Boolean(promo);

  function showFieldErrors(fields: Record<string, string[] | undefined>) {
    const out: Partial<Record<keyof Fields, string>> = {};
    for (const [k, msgs] of Object.entries(fields)) {
      const key = (FIELD_OF[k] ?? k) as keyof Fields;
      if (msgs?.[0]) out[key] ??= msgs[0];
    }
    setErrors(out);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const common = {
      description: f.description.trim() || null,
      startsAt: dateOrNull(f.startsAt),
      endsAt: dateOrNull(f.endsAt),
      totalLimit: intOrNull(f.totalLimit),
      minAccountAgeDays: intOrNull(f.minAccountAgeDays),
      ...(f.kind === 'credit'
        ? { amountCents: moneyOrNull(f.amount) }
        : { bonusPercent: intOrNull(f.bonusPercent), bonusCapCents: moneyOrNull(f.bonusCap) }),
    };
    const parsed = editing
      ? updatePromoSchema.safeParse({ ...common, active: f.active })
      : createPromoSchema.safeParse({ ...common, code: f.code, kind: f.kind, active: f.active });
    if (!parsed.success) {
      const fields: Record<string, string[]> = {};
      for (const i of parsed.error.issues) (fields[String(i.path[0] ?? '_')] ??= []).push(i.message);
      showFieldErrors(fields);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(parsed.data);
      if (!editing) setF(initial());
    } catch (err) {
      if (err instanceof ApiClientError && err.fields) showFieldErrors(err.fields);
      setError(err instanceof Error ? err.message : 'Saving failed. Try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Code" required={!editing} hint={editing ? 'Codes cannot be renamed.' : 'Letters, digits, - and _. Case does not matter.'} error={errors.code}>
          <Input value={f.code} onChange={(e) => set('code', e.target.value.toUpperCase())} disabled={editing} className="font-mono uppercase" autoComplete="off" />
        </FormField>
        <FormField label="Kind" hint={editing ? 'The kind cannot change.' : undefined}>
          <Select value={f.kind} onChange={(e) => set('kind', e.target.value as PromoKind)} disabled={editing}>
            <option value="credit">Credit grant (fixed amount)</option>
            <option value="deposit_bonus">Deposit bonus (% of next deposit)</option>
          </Select>
        </FormField>
      </div>
      {f.kind === 'credit' ? (
        <FormField label="Amount" required hint="Credited to the balance when redeemed." error={errors.amount} className="sm:max-w-xs">
          <Input inputMode="decimal" value={f.amount} onChange={(e) => set('amount', e.target.value)} placeholder="5.00" />
        </FormField>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Bonus percent" required error={errors.bonusPercent}>
            <Input inputMode="numeric" value={f.bonusPercent} onChange={(e) => set('bonusPercent', e.target.value)} placeholder="50" />
          </FormField>
          <FormField label="Bonus cap" required hint="The most one deposit can earn." error={errors.bonusCap}>
            <Input inputMode="decimal" value={f.bonusCap} onChange={(e) => set('bonusCap', e.target.value)} placeholder="25.00" />
          </FormField>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Valid from" hint="Empty: from now." error={errors.startsAt}>
          <Input type="datetime-local" value={f.startsAt} onChange={(e) => set('startsAt', e.target.value)} />
        </FormField>
        <FormField label="Valid until" hint="Empty: no end." error={errors.endsAt}>
          <Input type="datetime-local" value={f.endsAt} onChange={(e) => set('endsAt', e.target.value)} />
        </FormField>
        <FormField label="Total redemptions" hint="Empty: unlimited. Each account can redeem once." error={errors.totalLimit}>
          <Input inputMode="numeric" value={f.totalLimit} onChange={(e) => set('totalLimit', e.target.value)} />
        </FormField>
        <FormField label="Minimum account age (days)" hint="Empty: any account." error={errors.minAccountAgeDays}>
          <Input inputMode="numeric" value={f.minAccountAgeDays} onChange={(e) => set('minAccountAgeDays', e.target.value)} />
        </FormField>
      </div>
      <FormField label="Description" hint="For admins; not shown to users." error={errors.description}>
        <Input value={f.description} onChange={(e) => set('description', e.target.value)} maxLength={200} />
      </FormField>
      <FormField inline label="Active (can be redeemed)">
        <Checkbox checked={f.active} onChange={(e) => set('active', e.target.checked)} />
      </FormField>
      {error ? <Notice tone="danger">{error}</Notice> : null}
      <Button type="submit" loading={busy} loadingText="Saving…">
        {submitLabel}
      </Button>
    </form>
  );
}
