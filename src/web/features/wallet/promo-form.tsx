import { useForm, useWatch, type Resolver } from 'react-hook-form';
import type { CreatePromoInput, Promo, PromoKind, UpdatePromoInput } from '@shared/contracts/wallet';
import { createPromoSchema, updatePromoSchema } from '@shared/contracts/wallet';
import { centsToDecimal, parseMoney } from '@shared/money';
import { Button, Checkbox, FormField, Input, Notice, Select } from '@web/components/ui';
import { applyServerFields, errorText } from '@web/lib/api-errors';
import { convertingResolver } from '@web/lib/form-resolver';
import { fromLocalInput, toLocalInput } from '@web/lib/datetime-local';

/**
 * The fields hold what the inputs show (dollars, whole numbers as text, local date-times) under
 * the contract's names, so one conversion then the shared schema give the browser and the server
 * the same messages on the same fields.
 */
export interface PromoFormValues {
  code: string;
  kind: PromoKind;
  description: string;
  /** Dollars, e.g. "5.00". */
  amountCents: string;
  bonusPercent: string;
  /** Dollars. */
  bonusCapCents: string;
  startsAt: string;
  endsAt: string;
  totalLimit: string;
  minAccountAgeDays: string;
  active: boolean;
}
type Field = keyof PromoFormValues;
export type PromoInput = CreatePromoInput | UpdatePromoInput;

const FIELDS: Field[] = ['code', 'kind', 'description', 'amountCents', 'bonusPercent', 'bonusCapCents', 'startsAt', 'endsAt', 'totalLimit', 'minAccountAgeDays', 'active'];

const money = (c: number | null | undefined) => (c === null || c === undefined ? '' : centsToDecimal(c));

export function promoDefaults(p?: Promo): PromoFormValues {
  return {
    code: p?.code ?? '',
    kind: p?.kind ?? 'credit',
    description: p?.description ?? '',
    amountCents: money(p?.amountCents),
    bonusPercent: p?.bonusPercent?.toString() ?? '',
    bonusCapCents: money(p?.bonusCapCents),
    startsAt: toLocalInput(p?.startsAt ?? null),
    endsAt: toLocalInput(p?.endsAt ?? null),
    totalLimit: p?.totalLimit?.toString() ?? '',
    minAccountAgeDays: p?.minAccountAgeDays?.toString() ?? '',
    active: p?.active ?? true,
  };
}

/** The form's resolver: converts (empty → null), then the create or update contract decides. */
export function promoResolver(editing: boolean): Resolver<PromoFormValues, unknown, PromoInput> {
  return convertingResolver<PromoFormValues, PromoInput>({
    fields: FIELDS,
    schema: editing ? updatePromoSchema : createPromoSchema,
    toInput: (v, bad) => {
      const wholeOrNull = (f: 'bonusPercent' | 'totalLimit' | 'minAccountAgeDays') => {
        const s = v[f].trim();
        if (s === '') return null;
        if (!/^-?\d+(\.\d+)?$/.test(s)) bad(f, 'Enter a whole number.');
        return Number(s);
      };
      const moneyOrNull = (f: 'amountCents' | 'bonusCapCents') => {
        const s = v[f].trim();
        if (s === '') return null;
        const cents = parseMoney(s);
        if (cents === null) bad(f, 'Enter an amount in dollars, like 5 or 5.00.');
        return cents;
      };
      const common = {
        description: v.description.trim() || null,
        startsAt: v.startsAt ? fromLocalInput(v.startsAt) : null,
        endsAt: v.endsAt ? fromLocalInput(v.endsAt) : null,
        totalLimit: wholeOrNull('totalLimit'),
        minAccountAgeDays: wholeOrNull('minAccountAgeDays'),
        ...(v.kind === 'credit'
          ? { amountCents: moneyOrNull('amountCents') }
          : { bonusPercent: wholeOrNull('bonusPercent'), bonusCapCents: moneyOrNull('bonusCapCents') }),
      };
      return editing ? { ...common, active: v.active } : { ...common, code: v.code.toUpperCase(), kind: v.kind, active: v.active };
    },
  });
}

export interface PromoFormProps {
  promo?: Promo;
  submitLabel: string;
  onSubmit: (input: PromoInput) => Promise<unknown>;
}

/** Create (no promo) or edit a promo code. Code and kind are fixed once created. */
export function PromoForm({ promo, submitLabel, onSubmit }: PromoFormProps) {
  const editing = Boolean(promo);
  const { register, handleSubmit, formState, setError, reset, control } = useForm<PromoFormValues, unknown, PromoInput>({
    resolver: promoResolver(editing),
    defaultValues: promoDefaults(promo),
  });
  const e = formState.errors;
  const kind = useWatch({ control, name: 'kind' });

  const submit = handleSubmit(async (input) => {
    try {
      await onSubmit(input);
      if (!editing) reset(promoDefaults());
    } catch (err) {
      if (applyServerFields(err, setError, FIELDS)) return;
      setError('root', { type: 'server', message: errorText(err) });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Code" required={!editing} hint={editing ? 'Codes cannot be renamed.' : 'Letters, digits, - and _. Case does not matter.'} error={e.code?.message}>
          <Input {...register('code')} disabled={editing} className="font-mono uppercase" autoComplete="off" />
        </FormField>
        <FormField label="Kind" hint={editing ? 'The kind cannot change.' : undefined} error={e.kind?.message}>
          <Select {...register('kind')} disabled={editing}>
            <option value="credit">Credit grant (fixed amount)</option>
            <option value="deposit_bonus">Deposit bonus (% of next deposit)</option>
          </Select>
        </FormField>
      </div>
      {kind === 'credit' ? (
        <FormField label="Amount" required hint="Credited to the balance when redeemed." error={e.amountCents?.message} className="sm:max-w-xs">
          <Input inputMode="decimal" {...register('amountCents')} placeholder="5.00" />
        </FormField>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField label="Bonus percent" required error={e.bonusPercent?.message}>
            <Input inputMode="numeric" {...register('bonusPercent')} placeholder="50" />
          </FormField>
          <FormField label="Bonus cap" required hint="The most one deposit can earn." error={e.bonusCapCents?.message}>
            <Input inputMode="decimal" {...register('bonusCapCents')} placeholder="25.00" />
          </FormField>
        </div>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Valid from" hint="Empty: from now." error={e.startsAt?.message}>
          <Input type="datetime-local" {...register('startsAt')} />
        </FormField>
        <FormField label="Valid until" hint="Empty: no end." error={e.endsAt?.message}>
          <Input type="datetime-local" {...register('endsAt')} />
        </FormField>
        <FormField label="Total redemptions" hint="Empty: unlimited. Each account can redeem once." error={e.totalLimit?.message}>
          <Input inputMode="numeric" {...register('totalLimit')} />
        </FormField>
        <FormField label="Minimum account age (days)" hint="Empty: any account." error={e.minAccountAgeDays?.message}>
          <Input inputMode="numeric" {...register('minAccountAgeDays')} />
        </FormField>
      </div>
      <FormField label="Description" hint="For admins; not shown to users." error={e.description?.message}>
        <Input {...register('description')} maxLength={200} />
      </FormField>
      <FormField inline label="Active (can be redeemed)" error={e.active?.message}>
        <Checkbox {...register('active')} />
      </FormField>
      {e.root?.message ? <Notice tone="danger">{e.root.message}</Notice> : null}
      <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
        {submitLabel}
      </Button>
    </form>
  );
}
