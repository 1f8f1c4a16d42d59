import { warsawDate } from '@/server/calendar/dates';
import type { NormalizedBuyer } from './types';

/** Dates the VAT act ties to an invoice, on `YYYY-MM-DD` Warsaw calendar dates; pure, no clock of its own. */

/**
 * The tax point (art. 19a ust. 1: the delivery of the goods or completion of the service; ust. 8: a payment received
 * before it, on receipt): the earlier of the Warsaw payment date and the delivery date. Without a delivery date the
 * order is a prepaid shop order, taxed on payment (fa3-mapping.md §6.1).
 */
export function taxPoint(order: { paidAt: string; deliveredAt: string | null }): string {
  const paid = warsawDate(order.paidAt);
  return order.deliveredAt !== null && order.deliveredAt < paid ? order.deliveredAt : paid;
}

/**
 * The last day to issue the invoice: the 15th of the month after the supply (art. 106i ust. 1), or after a payment
 * received before it (ust. 2), whichever came first: the month of the tax point.
 */
export function invoiceDeadline(taxPointDate: string): string {
  const [y, m] = taxPointDate.split('-').map(Number) as [number, number];
  const next = m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 };
  return `${next.y}-${String(next.m).padStart(2, '0')}-15`;
}

/**
 * The missed deadline when an invoice is late (valid, but a sanctionable irregularity, tax-rules.md §11), else
 * undefined. `supply` and `payment` are Warsaw dates; either may be unknown, the earlier one counts.
 */
export function lateDeadline(issueDate: string, supply: string | undefined, payment: string | undefined): string | undefined {
  const first = [supply, payment].filter((d): d is string => !!d).sort()[0];
  if (!first) return undefined;
  const deadline = invoiceDeadline(first);
  return issueDate > deadline ? deadline : undefined;
}

/**
 * What the service checks of a buyer's address for art. 106e ust. 1 pkt 3 (name and address of the buyer): a Polish
 * address must hold a postal code NN-NNN followed by a city ("00-001 Warszawa", the MF samples' AdresL2), or a city
 * followed by the code in the second line. Null when it does, else the address as written (for the warning).
 */
export function buyerAddressProblem(buyer: Pick<NormalizedBuyer, 'address1' | 'address2' | 'countryCode'>): string | null {
  if (buyer.countryCode !== 'PL') return null;
  const all = `${buyer.address1} ${buyer.address2 ?? ''}`;
  if (/(^|[^\d])\d{2}-\d{3}\s*,?\s*\p{L}{2,}/u.test(all) || /\p{L}{2,}\s*,?\s*\d{2}-\d{3}\s*$/u.test(buyer.address2 ?? '')) return null;
  return all.trim();
}
