import type { TVatRate } from './view-model';

/** No-break space: keeps "1 234,56 zł" on one line inside narrow table cells. */
const NBSP = '\u00a0';

/** Grosze as Polish decimal text: 123456 → "1 234,56", -7999 → "-79,99". */
export function formatGrosze(grosze: number): string {
  if (!Number.isSafeInteger(grosze)) throw new Error(`amount must be integer grosze, got ${grosze}`);
  const abs = Math.abs(grosze);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+$)/g, NBSP);
  const cents = (abs % 100).toString().padStart(2, '0');
  return `${grosze < 0 ? '-' : ''}${whole},${cents}`;
}

/** Amount with its currency: "1 234,56 zł" for PLN, "620,50 EUR" otherwise. */
export function formatMoney(grosze: number, currency: string): string {
  return `${formatGrosze(grosze)}${NBSP}${currency === 'PLN' ? 'zł' : currency}`;
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

export function formatRate(rate: TVatRate): string {
  return `${rate}%`;
}

/** NBP rate "4.2322" → "4,2322". */
export function formatExchangeRate(rate: string): string {
  return rate.replace('.', ',');
}
