import { describe, expect, test } from 'vitest';
import { buyerAddressProblem, invoiceDeadline, isLate } from './tax-dates';

describe('invoice deadline (art. 106i ust. 1-2)', () => {
  test.each([
    ['2026-06-01T10:00:00Z', '2026-06-30', '2026-07-15', false],
    ['2026-06-01T10:00:00Z', '2026-07-15', '2026-07-15', false],
    ['2026-06-01T10:00:00Z', '2026-07-16', '2026-07-15', true],
    // paid 31 May 23:30 Warsaw = 21:30 UTC: the May payment's deadline is 15 June
    ['2026-05-31T21:30:00Z', '2026-06-16', '2026-06-15', true],
    ['2026-12-10T10:00:00Z', '2027-01-15', '2027-01-15', false],
  ])('paid %s, issued %s: deadline %s, late %s', (paidAt, issueDate, deadline, late) => {
    expect(invoiceDeadline(paidAt)).toBe(deadline);
    expect(isLate(issueDate, paidAt)).toBe(late);
  });
});

describe('buyer address check (art. 106e ust. 1 pkt 3)', () => {
  test.each([
    ['ul. Piotrkowska 120', '90-006 Łódź', 'PL', true],
    ['ul. Piotrkowska 120, 90-006 Łódź', null, 'PL', true],
    ['ul. Piotrkowska 120', 'Łódź 90-006', 'PL', true],
    ['ul. Piotrkowska 120', null, 'PL', false],
    ['ul. Piotrkowska 120', 'Łódź', 'PL', false],
    ['ul. Piotrkowska 120', '90-006', 'PL', false],
    ['Hauptstraße 1', '10115 Berlin', 'DE', true],
  ])('%s / %s (%s) complete: %s', (address1, address2, countryCode, ok) => {
    expect(buyerAddressProblem({ address1, address2, countryCode }) === null).toBe(ok);
  });
});
