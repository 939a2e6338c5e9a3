import { toNestErrors, validateFieldsNatively } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { Checked } from './form-check';

/** Each field's check; it gets the field's value and the whole form (to compare two fields). */
export type FieldChecks<T extends FieldValues> = { [K in keyof T]: (value: unknown, values: T) => Checked<T[K]> };

/**
 * A react-hook-form resolver from one check per field, answering as zodResolver did: each failing
 * field's first message, or the checked (trimmed) values, which are what the submit handler gets.
 */
export function checksResolver<T extends FieldValues>(checks: FieldChecks<T>): Resolver<T> {
  return async (values, _context, options) => {
    const checked: Partial<T> = {};
    const errors: Record<string, FieldError> = {};
    for (const name of Object.keys(checks) as (keyof T & string)[]) {
      const r = checks[name](values[name], values);
      if (r.ok) checked[name] = r.value;
      else errors[name] = { type: 'validate', message: r.message };
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors: toNestErrors(errors, options) };
    if (options.shouldUseNativeValidation) validateFieldsNatively({}, options);
    return { values: checked as T, errors: {} };
  };
}
