import type { FieldErrors, FieldValues, Path, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * A react-hook-form resolver for a form whose inputs differ from the API's input (dollars for
 * cents, text for numbers, local date-times): `toInput` converts the values, naming a field it
 * cannot read with `bad`; then the shared contract decides, so the browser and the server give the
 * same messages. Every message lands on a form field: the first one per field wins (a conversion
 * message before the contract's), contract names map through `rename`, and a path the form has no
 * field for goes on the first field, so a submit the contract refuses never gets through.
 */
export function convertingResolver<V extends FieldValues, O>(options: {
  fields: ReadonlyArray<Path<V>>;
  schema: z.ZodType<O> | ((values: V) => z.ZodType<O>);
  toInput: (values: V, bad: (field: Path<V>, message: string) => void) => unknown;
  rename?: Readonly<Record<string, Path<V>>>;
}): Resolver<V, unknown, O> {
  const { fields, toInput, rename = {} } = options;
  return async (values) => {
    const errors: Record<string, { type: string; message: string }> = {};
    const bad = (field: Path<V>, message: string) => {
      errors[field] ??= { type: 'validate', message };
    };
    const input = toInput(values, bad);
    const schema = typeof options.schema === 'function' ? options.schema(values) : options.schema;
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const name = issue.path.length ? String(issue.path[0]) : '';
        const field = rename[name] ?? (fields.includes(name as Path<V>) ? (name as Path<V>) : fields[0]);
        if (field) bad(field, issue.message);
      }
    }
    if (!parsed.success || Object.keys(errors).length) return { values: {}, errors: errors as FieldErrors<V> };
    return { values: parsed.data, errors: {} };
  };
}
