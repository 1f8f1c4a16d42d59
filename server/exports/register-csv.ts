import { VAT_RATES } from '@/server/facts/vat-rates';
import type { OutageMode } from '@/server/outage/mode-names';
import { markText } from './jpk-marker';
import type { RegisterRow } from './register-row';

/**
 * The register as CSV for Polish spreadsheets: UTF-8 with a BOM (Excel reads UTF-8 only with it), `;` between
 * fields and a decimal comma (the pl-PL list separator and decimal mark Excel and LibreOffice use), CRLF line
 * ends, every field quoted. Amounts are plain decimals without thousands separators, negative with a leading
 * minus; dates `YYYY-MM-DD`; instants Europe/Warsaw `YYYY-MM-DD HH:MM:SS`. Headers are Polish, as the JPK's.
 */
export const REGISTER_CSV_HEADER = [
  'Lp',
  'Rodzaj',
  'Numer',
  'Data wystawienia',
  'Data sprzedaży',
  'Data zapłaty',
  'NIP nabywcy',
  'Nazwa nabywcy',
  ...VAT_RATES.flatMap((r) => [`Netto ${r}%`, `VAT ${r}%`]),
  ...VAT_RATES.flatMap((r) => [`Netto ${r}% PLN`, `VAT ${r}% PLN`]),
  'Brutto',
  'Brutto PLN',
  'Waluta',
  'Kurs',
  'Data kursu',
  'Tabela kursu',
  'Numer KSeF lub oznaczenie',
  'Oznaczenie od',
  'Offline',
  'Tryb offline',
  'Wydana offline',
  'Termin przesłania do KSeF',
  'Termin przekroczony',
  'Faktura korygowana',
  'Data faktury korygowanej',
  'Numer KSeF faktury korygowanej',
  'Id dokumentu',
] as const;

/** The outage modes as the VAT act names them (server/outage/modes.ts). */
const MODE_NAMES: Record<OutageMode, string> = {
  offline24: 'offline24 (art. 106nda)',
  unavailable: 'niedostępność KSeF (art. 106nh)',
  failure: 'awaria KSeF (art. 106nf)',
  total_failure: 'awaria całkowita (art. 106ng)',
};

const CRLF = '\r\n';
export const UTF8_BOM = '\uFEFF';

/** Decimal comma, minus sign, no grouping: "-1234,56". */
export const csvAmount = (grosze: number): string => {
  const abs = Math.abs(grosze);
  return `${grosze < 0 ? '-' : ''}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
};

const WARSAW = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Europe/Warsaw',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const warsawInstant = (at: Date | null): string => (at ? WARSAW.format(at) : '');

/** A text a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a leading apostrophe (CSV injection). */
const text = (s: string): string => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
const quote = (s: string): string => `"${s.replace(/"/g, '""')}"`;

export const csvLine = (fields: readonly string[]): string => fields.map(quote).join(';') + CRLF;

export const registerCsvHeader = (): string => UTF8_BOM + csvLine(REGISTER_CSV_HEADER);

export function registerCsvLine(lp: number, row: RegisterRow): string {
  const rate = (r: number) => row.rates.find((x) => x.rate === r)!;
  return csvLine([
    String(lp),
    row.kind === 'invoice' ? 'faktura' : 'korekta',
    text(row.number),
    row.issueDate,
    row.supplyDate ?? row.issueDate,
    row.paymentDate ?? '',
    row.buyerNip,
    text(row.buyerName),
    ...VAT_RATES.flatMap((r) => [csvAmount(rate(r).netGrosze), csvAmount(rate(r).vatGrosze)]),
    ...VAT_RATES.flatMap((r) => [csvAmount(rate(r).netPlnGrosze), csvAmount(rate(r).vatPlnGrosze)]),
    csvAmount(row.grossGrosze),
    csvAmount(row.grossPlnGrosze),
    row.currency,
    row.exchangeRate ? row.exchangeRate.rate.replace('.', ',') : '',
    row.exchangeRate?.date ?? '',
    row.exchangeRate ? text(row.exchangeRate.table) : '',
    markText(row.mark),
    warsawInstant(row.markChangedAt),
    row.offline ? 'tak' : 'nie',
    row.offline ? MODE_NAMES[row.offline.mode] : '',
    warsawInstant(row.offline?.issuedAt ?? null),
    warsawInstant(row.offline?.deadline ?? null),
    row.offline?.deadlineMissed ? 'tak' : '',
    row.corrects ? text(row.corrects.number) : '',
    row.corrects?.issueDate ?? '',
    row.corrects?.ksefNumber ?? '',
    row.documentId,
  ]);
}
