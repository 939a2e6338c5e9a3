import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertingResolver } from './form-resolver';

interface Values {
  dollars: string;
  note: string;
}
const schema = z
  .object({ cents: z.number().max(1000, 'At most $10.00.'), note: z.string().min(2, 'Say more.'), extra: z.literal(true, { message: 'Hidden rule.' }) })
  .partial({ extra: true });
const opts = { fields: {}, shouldUseNativeValidation: false } as never;

const resolver = (extra?: boolean) =>
  convertingResolver<Values, z.output<typeof schema>>({
    fields: ['dollars', 'note'],
    schema,
    rename: { cents: 'dollars' },
    toInput: (v, bad) => {
      const n = Number(v.dollars);
      if (Number.isNaN(n)) bad('dollars', 'Enter dollars.');
      return { cents: Math.round(n * 100), note: v.note, ...(extra === undefined ? {} : { extra }) };
    },
  });

describe('convertingResolver', () => {
  it('gives the contract’s output when the conversion and the contract pass', async () => {
    expect(await resolver()({ dollars: '2.5', note: 'ok' }, undefined, opts)).toEqual({ values: { cents: 250, note: 'ok' }, errors: {} });
  });

  it('puts the contract’s messages on the form’s names, a conversion message first', async () => {
    const r = await resolver()({ dollars: 'ten', note: 'x' }, undefined, opts);
    expect(r.values).toEqual({});
    expect(r.errors).toEqual({ dollars: { type: 'validate', message: 'Enter dollars.' }, note: { type: 'validate', message: 'Say more.' } });
    const high = await resolver()({ dollars: '11', note: 'ok' }, undefined, opts);
    expect(high.errors).toEqual({ dollars: { type: 'validate', message: 'At most $10.00.' } });
  });

  it('never lets through what the contract refuses on a path the form has no field for', async () => {
    const r = await resolver(false)({ dollars: '1', note: 'ok' }, undefined, opts);
    expect(r.errors).toEqual({ dollars: { type: 'validate', message: 'Hidden rule.' } });
  });
});
