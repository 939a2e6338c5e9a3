import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, parseCsv, toCsv } from './csv.ts';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, a BOM and mixed line ends', () => {
    expect(parseCsv('\ufeffname,value\r\n"Pikachu, V","say ""hi"""\nb,2\rc,3\n')).toEqual([
      ['name', 'value'],
      ['Pikachu, V', 'say "hi"'],
      ['b', '2'],
      ['c', '3'],
    ]);
  });

  it('keeps line breaks inside quotes, whitespace and empty fields; drops blank lines', () => {
    expect(parseCsv('a,b\n\n  \n"x\ny", z \n,,\n')).toEqual([['a', 'b'], ['x\ny', ' z '], ['', '', '']]);
  });

  it('allows rows of different lengths and stray quotes inside unquoted fields', () => {
    expect(parseCsv('a,b,c\n1\n5" disc,2')).toEqual([['a', 'b', 'c'], ['1'], ['5" disc', '2']]);
  });

  it('an empty file has no rows', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\ufeff\n')).toEqual([]);
  });

  it('names the row of a quote that is never closed', () => {
    try {
      parseCsv('a,b\n1,2\n3,"open\n4,5\n');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(CsvSyntaxError);
      expect((err as CsvSyntaxError).row).toBe(3);
      expect((err as CsvSyntaxError).message).toBe('A quoted field is never closed.');
    }
  });

  it('reads back what toCsv writes', () => {
    const rows = [['a', 'b,c', 'say "x"', 'line\nbreak', '12']];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });
});
