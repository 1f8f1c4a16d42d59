import { formatGrosze } from '@/server/orders/money';

export type CsvDocumentRow = {
  kind: string;
  status: string;
  number: string | null;
  orderExternalId: string;
  ksefNumber: string | null;
  buyerName: string | null;
  buyerNip: string | null;
  issueDate: string | null;
  currency: string | null;
  totalNetGrosze: number | null;
  totalVatGrosze: number | null;
  totalGrossGrosze: number | null;
};

export const CSV_COLUMNS = [
  'number',
  'kind',
  'status',
  'issueDate',
  'order',
  'buyerName',
  'buyerNip',
  'currency',
  'net',
  'vat',
  'gross',
  'ksefNumber',
] as const;
export type CsvHeaders = Record<(typeof CSV_COLUMNS)[number], string>;

/** Polish Excel opens a file as UTF-8 only with a BOM, splits on `;` and reads `12,30` as a number. */
const BOM = '\uFEFF';
const SEPARATOR = ';';

const cell = (v: string | null): string => {
  if (v === null) return '';
  // a leading = + - @ would run as a formula in a spreadsheet (CSV injection); quoting alone does not stop it
  const text = /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
  return /[";\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const amount = (grosze: number | null): string => (grosze === null ? '' : formatGrosze(grosze).replace('.', ','));

/** The filtered document list as a CSV file's text, one document a line, CRLF line ends (RFC 4180). */
export function documentsCsv(
  rows: readonly CsvDocumentRow[],
  headers: CsvHeaders,
  labels: { kind: (k: string) => string; status: (s: string) => string },
): string {
  const lines = [CSV_COLUMNS.map((c) => cell(headers[c])).join(SEPARATOR)];
  for (const r of rows) {
    const values: Record<(typeof CSV_COLUMNS)[number], string> = {
      number: cell(r.number),
      kind: cell(labels.kind(r.kind)),
      status: cell(labels.status(r.status)),
      issueDate: cell(r.issueDate),
      order: cell(r.orderExternalId),
      buyerName: cell(r.buyerName),
      buyerNip: cell(r.buyerNip),
      currency: cell(r.currency),
      net: amount(r.totalNetGrosze),
      vat: amount(r.totalVatGrosze),
      gross: amount(r.totalGrossGrosze),
      ksefNumber: cell(r.ksefNumber),
    };
    lines.push(CSV_COLUMNS.map((c) => values[c]).join(SEPARATOR));
  }
  return BOM + lines.join('\r\n') + '\r\n';
}
