import { createHash } from 'node:crypto';
import { addDays } from '@/server/calendar/date-text';
import { isWorkingDay } from '@/server/calendar/working-days';

type Currency = { code: string; name: string; /** typical mid in units of 10^-decimals */ base: number; decimals: number };

/** The 32 entries of table A as of 2026 (nbp.md §6), with rough levels so generated rates look plausible. */
const CURRENCIES: readonly Currency[] = [
  { code: 'THB', name: 'bat (Tajlandia)', base: 1130, decimals: 4 },
  { code: 'USD', name: 'dolar amerykański', base: 37200, decimals: 4 },
  { code: 'AUD', name: 'dolar australijski', base: 24000, decimals: 4 },
  { code: 'HKD', name: 'dolar Hongkongu', base: 4760, decimals: 4 },
  { code: 'CAD', name: 'dolar kanadyjski', base: 27000, decimals: 4 },
  { code: 'NZD', name: 'dolar nowozelandzki', base: 22000, decimals: 4 },
  { code: 'SGD', name: 'dolar singapurski', base: 28800, decimals: 4 },
  { code: 'EUR', name: 'euro', base: 42300, decimals: 4 },
  { code: 'HUF', name: 'forint (Węgry)', base: 119, decimals: 4 },
  { code: 'CHF', name: 'frank szwajcarski', base: 45000, decimals: 4 },
  { code: 'GBP', name: 'funt szterling', base: 49500, decimals: 4 },
  { code: 'UAH', name: 'hrywna (Ukraina)', base: 890, decimals: 4 },
  { code: 'JPY', name: 'jen (Japonia)', base: 228, decimals: 4 },
  { code: 'CZK', name: 'korona czeska', base: 1700, decimals: 4 },
  { code: 'DKK', name: 'korona duńska', base: 5670, decimals: 4 },
  { code: 'ISK', name: 'korona islandzka', base: 290, decimals: 4 },
  { code: 'NOK', name: 'korona norweska', base: 3650, decimals: 4 },
  { code: 'SEK', name: 'korona szwedzka', base: 3880, decimals: 4 },
  { code: 'RON', name: 'lej rumuński', base: 8400, decimals: 4 },
  { code: 'TRY', name: 'lira turecka', base: 880, decimals: 4 },
  { code: 'ILS', name: 'nowy izraelski szekel', base: 10300, decimals: 4 },
  { code: 'CLP', name: 'peso chilijskie', base: 3900, decimals: 6 },
  { code: 'PHP', name: 'peso filipińskie', base: 650, decimals: 4 },
  { code: 'MXN', name: 'peso meksykańskie', base: 1950, decimals: 4 },
  { code: 'ZAR', name: 'rand (Republika Południowej Afryki)', base: 2050, decimals: 4 },
  { code: 'BRL', name: 'real (Brazylia)', base: 6600, decimals: 4 },
  { code: 'MYR', name: 'ringgit (Malezja)', base: 8700, decimals: 4 },
  { code: 'IDR', name: 'rupia indonezyjska', base: 20367, decimals: 8 },
  { code: 'INR', name: 'rupia indyjska', base: 430, decimals: 4 },
  { code: 'KRW', name: 'won południowokoreański', base: 2640, decimals: 6 },
  { code: 'CNY', name: 'yuan renminbi (Chiny)', base: 5150, decimals: 4 },
  { code: 'XDR', name: 'SDR (MFW)', base: 50800, decimals: 4 },
];

/** Values seen in published tables that the domain fixtures quote (fa3-vat-eur-order-4830.xml). */
const PINNED: Record<string, Record<string, string>> = { '2026-05-29': { EUR: '4.2322' } };

export type TableRate = { currency: string; code: string; mid: string };
export type Table = { table: 'A'; no: string; effectiveDate: string; rates: TableRate[] };

export const findCurrency = (code: string): Currency | undefined => CURRENCIES.find((c) => c.code === code.toUpperCase());

/** The table A NBP would publish on `date`, or null on weekends and holidays. Same input, same numbers. */
export function tableFor(date: string): Table | null {
  if (!isWorkingDay(date)) return null;
  return {
    table: 'A',
    no: `${String(tableNumber(date)).padStart(3, '0')}/A/NBP/${date.slice(0, 4)}`,
    effectiveDate: date,
    rates: CURRENCIES.map((c) => ({ currency: c.name, code: c.code, mid: PINNED[date]?.[c.code] ?? generateMid(c, date) })),
  };
}

/** Running number within the year: the count of publication days from 1 January up to `date`. */
function tableNumber(date: string): number {
  let n = 0;
  for (let d = `${date.slice(0, 4)}-01-01`; d <= date; d = addDays(d, 1)) if (isWorkingDay(d)) n += 1;
  return n;
}

/** Base level moved by up to ±1 % from a hash of (currency, day), in integer units to keep the text exact. */
function generateMid(c: Currency, date: string): string {
  const spread = createHash('sha256').update(`${c.code}:${date}`).digest().readUInt32BE(0) % 201; // 0..200
  const units = c.base + Math.round((c.base * (spread - 100)) / 10_000);
  const digits = String(units).padStart(c.decimals + 1, '0');
  return `${digits.slice(0, -c.decimals)}.${digits.slice(-c.decimals)}`;
}
