import { describe, expect, test } from 'vitest';
import { buyerAddressProblem, invoiceDeadline, lateDeadline, taxPoint } from './tax-dates';

describe('tax point (art. 19a ust. 1 and 8)', () => {
  test.each([
    // prepaid shop order: taxed on payment
    [{ paidAt: '2026-06-01T10:00:00Z', deliveredAt: null }, '2026-06-01'],
    // paid 00:20 on 2 June in Warsaw (22:20 UTC the day before): the Warsaw date counts
    [{ paidAt: '2026-06-01T22:20:00Z', deliveredAt: null }, '2026-06-02'],
    // paid before delivery: the payment (ust. 8)
    [{ paidAt: '2026-06-01T10:00:00Z', deliveredAt: '2026-06-05' }, '2026-06-01'],
    // delivered 20.10, paid 20.11: the delivery (ust. 1), so the rate of 19.10 (the issue 34 case)
    [{ paidAt: '2026-11-20T10:00:00Z', deliveredAt: '2026-10-20' }, '2026-10-20'],
  ])('%o → %s', (order, date) => expect(taxPoint(order)).toBe(date));
});

describe('invoice deadline (art. 106i ust. 1-2)', () => {
  test.each([
    ['2026-06-01', '2026-07-15'],
    ['2026-06-30', '2026-07-15'],
    ['2026-12-10', '2027-01-15'],
  ])('tax point %s: deadline %s', (date, deadline) => expect(invoiceDeadline(date)).toBe(deadline));

  test.each([
    { issue: '2026-07-16', supply: '2026-06-01', paid: '2026-06-01', late: '2026-07-15' },
    { issue: '2026-07-15', supply: '2026-06-30', paid: '2026-06-30', late: undefined },
    { issue: '2027-01-16', supply: '2026-12-31', paid: undefined, late: '2027-01-15' },
    // paid in May, delivered in June: the payment's deadline (ust. 2)
    { issue: '2026-06-16', supply: '2026-06-10', paid: '2026-05-20', late: '2026-06-15' },
    // delivered in October, paid in November: the delivery's deadline (ust. 1)
    { issue: '2026-11-20', supply: '2026-10-20', paid: '2026-11-20', late: '2026-11-15' },
    { issue: '2026-08-01', supply: undefined, paid: '2026-06-20', late: '2026-07-15' },
    { issue: '2026-08-01', supply: undefined, paid: undefined, late: undefined },
  ])('lateDeadline($issue, $supply, $paid) = $late', ({ issue, supply, paid, late }) => {
    expect(lateDeadline(issue, supply, paid)).toBe(late);
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
