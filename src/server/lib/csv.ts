import { CsvError, parse } from 'csv-parse/sync';

/**
 * RFC 4180 CSV through csv-parse (ADR 0017): quoted fields, doubled quotes, CRLF, LF or CR line
 * ends (mixed too: spreadsheets and hand edits mix them), a leading BOM, rows of any length (the
 * caller reports a short row with its number). A stray quote inside an unquoted field is kept as
 * text. Blank lines carry no data and are dropped. An unclosed quote is a CsvSyntaxError naming
 * the row where it opened (row 1 = the first line).
 */
export function parseCsv(text: string): string[][] {
  let rows: string[][];
  try {
    rows = parse(text, {
      bom: true,
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: false,
      record_delimiter: ['\r\n', '\n', '\r'],
    });
  } catch (err) {
    if (err instanceof CsvError) {
      // `records`: the rows finished before the failure; the broken one is the next.
      const row = Number((err as CsvError & { records?: number }).records ?? 0) + 1;
      const message = err.code === 'CSV_QUOTE_NOT_CLOSED' ? 'A quoted field is never closed.' : `The file is not valid CSV (${err.message}).`;
      throw new CsvSyntaxError(row, message);
    }
    throw err;
  }
  return rows.filter((r) => !(r.length === 1 && r[0]!.trim() === ''));
}

export class CsvSyntaxError extends Error {
  constructor(
    readonly row: number,
    message: string,
  ) {
    super(message);
  }
}

function cell(v: string | number | boolean | null | undefined): string {
  let s = v === null || v === undefined ? '' : String(v);
  // Spreadsheet apps execute cells starting with these; prefix so exported text stays text.
  if (/^[=+\-@\t\r]/.test(s) && !/^-?\d+(\.\d+)?$/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: Array<Array<string | number | boolean | null | undefined>>): string {
  return rows.map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n';
}
