import { warsawDate } from './dates';
import type { NormalizedBuyer } from './types';

/** Dates the VAT act ties to an invoice, on `YYYY-MM-DD` Warsaw calendar dates; pure, no clock of its own. */

/**
 * The last day to issue the invoice of a payment received before the supply: the 15th of the month after the
 * payment's month (art. 106i ust. 2; ust. 1 says the same of the supply month).
 */
export function invoiceDeadline(paidAt: string): string {
  const [y, m] = warsawDate(paidAt).split('-').map(Number) as [number, number];
  const next = m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 };
  return `${next.y}-${String(next.m).padStart(2, '0')}-15`;
}

/** An invoice issued after invoiceDeadline is still valid, but late (a sanctionable irregularity, tax-rules.md §11). */
export const isLate = (issueDate: string, paidAt: string): boolean => issueDate > invoiceDeadline(paidAt);

/**
 * What the service checks of a buyer's address for art. 106e ust. 1 pkt 3 (name and address of the buyer): a Polish
 * address must hold a postal code NN-NNN followed by a city ("00-001 Warszawa", the MF samples' AdresL2), or a city
 * followed by the code in the second line. Null when it does, else the warning's text.
 */
export function buyerAddressProblem(buyer: Pick<NormalizedBuyer, 'address1' | 'address2' | 'countryCode'>): string | null {
  if (buyer.countryCode !== 'PL') return null;
  const all = `${buyer.address1} ${buyer.address2 ?? ''}`;
  if (/(^|[^\d])\d{2}-\d{3}\s*,?\s*\p{L}{2,}/u.test(all) || /\p{L}{2,}\s*,?\s*\d{2}-\d{3}\s*$/u.test(buyer.address2 ?? '')) return null;
  return `The buyer's address "${all.trim()}" has no Polish postal code (NN-NNN) with a city; the invoice needs the buyer's full address (art. 106e ust. 1 pkt 3).`;
}
