import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch, type FieldErrors, type FieldValues, type Path, type UseFormRegister, type UseFormSetError } from 'react-hook-form';
import type { z } from 'zod';
import {
  addressInputSchema,
  COUNTRIES,
  NO_POSTAL_CODE_COUNTRIES,
  POSTAL_RULES,
  type Address,
  type AddressInput,
} from '@shared/contracts/shipping';
import { Button, Checkbox, FormField, Input, Notice, Select } from '@web/components/ui';
import { ApiClientError } from '@web/lib/api';

type FormIn = z.input<typeof addressInputSchema>;
type FormOut = z.output<typeof addressInputSchema>;

/** Puts the server's field messages on the form; returns the message for the whole form. */
export function applyServerErrors<T extends FieldValues>(err: unknown, setError: UseFormSetError<T>, names: readonly string[]): string {
  if (!(err instanceof ApiClientError)) return 'Something went wrong. Try again in a moment.';
  if (err.fields) {
    for (const [key, messages] of Object.entries(err.fields)) {
      if (names.includes(key)) setError(key as Path<T>, { type: 'server', message: messages[0] });
    }
  }
  return err.message;
}

export const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country', 'phone', 'isDefault'] as const;

export function postalHint(country: string | undefined): string | undefined {
  if (!country) return undefined;
  if ((NO_POSTAL_CODE_COUNTRIES as readonly string[]).includes(country)) return 'Optional in this country.';
  const rule = POSTAL_RULES[country];
  return rule ? `For example ${rule.example}.` : undefined;
}

/**
 * A user's shipping address: the same zod schema as the API checks (postal code per country),
 * with the countries the shop ships to. Field errors from the server land on their fields.
 */
export function AddressForm({
  existing,
  countries,
  onSaved,
  onCancel,
  save,
  submitLabel = 'Save address',
}: {
  existing: Address | null;
  /** ISO codes offered (the countries shipped to). */
  countries: string[];
  save: (input: AddressInput) => Promise<Address>;
  onSaved: (a: Address) => void;
  onCancel?: () => void;
  submitLabel?: string;
}) {
  const form = useForm<FormIn, unknown, FormOut>({
    resolver: zodResolver(addressInputSchema),
    defaultValues: existing
      ? {
          name: existing.name,
          line1: existing.line1,
          line2: existing.line2,
          city: existing.city,
          region: existing.region,
          postalCode: existing.postalCode,
          country: existing.country,
          phone: existing.phone,
          isDefault: existing.isDefault,
        }
      : { name: '', line1: '', line2: '', city: '', region: '', postalCode: '', country: countries.length === 1 ? countries[0] : '', phone: '', isDefault: false },
  });
  const { register, handleSubmit, formState, setError, control } = form;
  const country = useWatch({ control, name: 'country' });
  const e = formState.errors;
  // An address kept from before the country left the list still shows its country.
  const offered = existing && !countries.includes(existing.country) ? [...countries, existing.country] : countries;

  const submit = handleSubmit(async (values) => {
    try {
      const saved = await save(values);
      onSaved(saved);
    } catch (err) {
      setError('root', { message: applyServerErrors(err, setError, ADDRESS_FIELDS) });
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {e.root?.message ? (
        <Notice tone="danger" title="The address was not saved">
          {e.root.message} Fix the marked fields and save again.
        </Notice>
      ) : null}
      <AddressFields register={register as unknown as UseFormRegister<AddressFieldValues>} errors={e} countries={offered} country={country} />
      <FormField label="Use as my default address" inline error={e.isDefault?.message}>
        <Checkbox {...register('isDefault')} />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" loading={formState.isSubmitting} loadingText="Saving…">
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}

export interface AddressFieldValues {
  name: string;
  line1: string;
  line2?: string;
  city: string;
  region?: string;
  postalCode?: string;
  country: string;
  phone: string;
}

/** The fields of an address (a user's or a ship-from origin's), for any form holding them. */
export function AddressFields({
  register,
  errors: e,
  countries: offered,
  country,
  nameLabel = 'Full name',
}: {
  /** "Full name" for a person, "Name" for a warehouse. */
  nameLabel?: string;
  register: UseFormRegister<AddressFieldValues>;
  errors: FieldErrors<AddressFieldValues>;
  countries: string[];
  country: string | undefined;
}) {
  return (
    <>
      <FormField label={nameLabel} required error={e.name?.message}>
        <Input autoComplete="name" {...register('name')} />
      </FormField>
      <FormField label="Address line 1" required error={e.line1?.message} hint="Street and number">
        <Input autoComplete="address-line1" {...register('line1')} />
      </FormField>
      <FormField label="Address line 2" error={e.line2?.message} hint="Apartment, suite, floor (optional)">
        <Input autoComplete="address-line2" {...register('line2')} />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="City" required error={e.city?.message}>
          <Input autoComplete="address-level2" {...register('city')} />
        </FormField>
        <FormField label="Region or state" error={e.region?.message} hint="Optional where not used">
          <Input autoComplete="address-level1" {...register('region')} />
        </FormField>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Country" required error={e.country?.message}>
          <Select autoComplete="country" {...register('country')}>
            <option value="">Pick a country</option>
            {offered.map((c) => (
              <option key={c} value={c}>
                {COUNTRIES[c] ?? c}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField label="Postal code" required={!NO_POSTAL_CODE_COUNTRIES.includes(country as 'HK')} error={e.postalCode?.message} hint={postalHint(country)}>
          <Input autoComplete="postal-code" {...register('postalCode')} />
        </FormField>
      </div>
      <FormField label="Phone" required error={e.phone?.message} hint="The carrier may call about the delivery.">
        <Input type="tel" autoComplete="tel" {...register('phone')} />
      </FormField>
    </>
  );
}
