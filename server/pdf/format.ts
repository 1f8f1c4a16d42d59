/** No-break space: keeps "1 234,56 PLN" on one line inside narrow table cells. */
const NBSP = '\u00a0';

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+$)/g, NBSP);

/** Grosze as Polish decimal text: 123456 → "1 234,56", -7999 → "-79,99". */
export function formatGrosze(grosze: number): string {
  if (!Number.isSafeInteger(grosze)) throw new Error(`amount must be integer grosze, got ${grosze}`);
  const abs = Math.abs(grosze);
  const cents = (abs % 100).toString().padStart(2, '0');
  return `${grosze < 0 ? '-' : ''}${group(Math.floor(abs / 100).toString())},${cents}`;
}

/** Amount with its currency code, as the Ministry's visualisation prints totals: "1 234,56 PLN", "620,50 EUR". */
export function formatMoney(grosze: number, currency: string): string {
  return `${formatGrosze(grosze)}${NBSP}${currency}`;
}

/**
 * An FA(3) decimal (P_9B and P_10 carry up to 8 fraction digits) in Polish form: at least two decimals,
 * further digits kept when they are not zero ("59.99" → "59,99", "16.66666667" → "16,66666667", "1299" → "1 299,00").
 */
export function formatDecimal(text: string): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return text;
  const [, sign = '', whole = '0', fraction = ''] = m;
  const digits = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${group(whole)},${digits}`;
}

/** "2026-06-02" → "02.06.2026". */
export function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}.${m}.${y}`;
}

/** Decimal text with a Polish comma: "-1" stays, "1.500" → "1,5". */
export function formatQuantity(quantity: string): string {
  const [whole, fraction = ''] = quantity.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return trimmed ? `${whole},${trimmed}` : `${whole}`;
}

/** KursWaluty "4.2322" → "4,232200": six decimals, as FA(3) TIlosci allows and the Ministry's visualisation prints. */
export function formatExchangeRate(rate: string): string {
  const [whole, fraction = ''] = rate.split('.');
  return `${whole},${fraction.padEnd(6, '0')}`;
}

/** FaWiersz/P_12 as the Ministry's visualisation prints it (TStawkaPodatku): "23" → "23%", "0 KR" → "0% - KR". */
export function formatRateCode(p12: string): string {
  if (/^\d+$/.test(p12)) return `${p12}%`;
  const zero = /^0 (KR|WDT|EX)$/.exec(p12);
  return zero ? `0% - ${zero[1]}` : p12;
}

/**
 * "Stawka podatku" of a VAT summary row, by the FA(3) field the amounts are in (P_13_1 … P_13_11). A field
 * covers a group of rates (P_13_1 is 23 % or 22 %), so the label names the group, as the Ministry's
 * visualisation does; a bare "0%" would not tell domestic, intra-EU and export apart.
 */
export const SUMMARY_RATE_LABEL = {
  '1': '23% lub 22%',
  '2': '8% lub 7%',
  '3': '5%',
  '4': '4% lub 3%',
  '5': 'OSS',
  '6_1': '0% w przypadku sprzedaży towarów i świadczenia usług na terytorium kraju (z wyłączeniem WDT i eksportu)',
  '6_2': '0% w przypadku wewnątrzwspólnotowej dostawy towarów (WDT)',
  '6_3': '0% w przypadku eksportu towarów',
  '7': 'zwolnione od podatku',
  '8': 'np z wyłączeniem art. 100 ust. 1 pkt 4 ustawy',
  '9': 'np na podstawie art. 100 ust. 1 pkt 4 ustawy',
  '10': 'odwrotne obciążenie',
  '11': 'marża',
} as const;

export type SummaryField = keyof typeof SUMMARY_RATE_LABEL;
export const SUMMARY_FIELDS = Object.keys(SUMMARY_RATE_LABEL) as SummaryField[];
