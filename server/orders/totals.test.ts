import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { computeCorrection, computeTotals } from './totals';
import type { NormalizedLine, NormalizedOrder, NormalizedRefund } from './types';

const line = (name: string, quantity: number, unitPriceGrosze: number, vatRate: NormalizedLine['vatRate'], discountGrosze = 0): NormalizedLine => ({
  ref: null,
  name,
  sku: null,
  quantity,
  unitPriceGrosze,
  discountGrosze,
  grossGrosze: quantity * unitPriceGrosze - discountGrosze,
  vatRate,
  annex15: false,
});

// order 4817 of the fixtures
const order = (): NormalizedOrder => ({
  externalId: '4817',
  number: '4817',
  createdAt: '2026-06-01T19:47:12.000Z',
  paidAt: '2026-06-01T19:48:03.000Z',
  deliveredAt: null,
  currency: 'PLN',
  paymentMethod: 'transfer',
  buyer: {
    nip: '3861610227',
    name: 'Kreska',
    address1: 'ul. Piotrkowska 120',
    address2: null,
    countryCode: 'PL',
    email: null,
    customerNumber: null,
    jst: false,
    vatGroup: false,
    recipient: null,
  },
  lines: [line('Ekspres', 1, 129_900, 23), line('Dzbanek', 3, 5_999, 23), line('Kawa', 2, 8_990, 8)],
  shipping: [{ ref: null, name: 'Dostawa - Kurier DPD', grossGrosze: 2_000, vatRate: 23 }],
});

const refund = (over: Partial<NormalizedRefund> = {}): NormalizedRefund => ({
  externalId: 'r1',
  reason: null,
  createdAt: null,
  shippingGrosze: null,
  shippingRef: null,
  lines: [{ ref: null, invoiceLineRef: null, name: 'Dzbanek', sku: null, quantity: 1, unitPriceGrosze: 5_999, vatRate: 23 }],
  ...over,
});

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return `${err.code} ${err.param}`;
    throw err;
  }
  return 'no error';
}

describe('computeTotals', () => {
  test("fixture 4817: VAT per bucket from gross, not WooCommerce's per-line 293.61", () => {
    const t = computeTotals(order());
    expect(t.buckets).toEqual([
      { rate: 23, grossGrosze: 149_897, vatGrosze: 28_030, netGrosze: 121_867 },
      { rate: 8, grossGrosze: 17_980, vatGrosze: 1_332, netGrosze: 16_648 },
    ]);
    expect([t.grossGrosze, t.vatGrosze, t.netGrosze]).toEqual([167_877, 29_362, 138_515]);
  });

  test('discounts reduce the bucket; 0 % and 5 % get their own buckets', () => {
    const t = computeTotals({ ...order(), lines: [line('Książka', 2, 4_990, 5, 998), line('Eksport', 1, 10_000, 0)], shipping: [] });
    expect(t.buckets).toEqual([
      { rate: 5, grossGrosze: 8_982, vatGrosze: 428, netGrosze: 8_554 },
      { rate: 0, grossGrosze: 10_000, vatGrosze: 0, netGrosze: 10_000 },
    ]);
  });
});

describe('computeCorrection', () => {
  test('refund 4822: one jug and the shipping → -65.03 / -14.96 / -79.99', () => {
    const c = computeCorrection(order(), [], refund({ shippingGrosze: 2_000 }));
    expect(c.rows).toEqual([
      {
        kind: 'line',
        state: 'difference',
        ref: null,
        invoiceRow: 1,
        name: 'Dzbanek',
        sku: null,
        quantity: -1,
        unitPrice: '59.99',
        discountGrosze: 0,
        grossGrosze: -5_999,
        vatRate: 23,
        annex15: false,
      },
      {
        kind: 'shipping',
        state: 'difference',
        ref: null,
        invoiceRow: 3,
        name: 'Dostawa - Kurier DPD',
        sku: null,
        quantity: -1,
        unitPrice: '20.00',
        discountGrosze: 0,
        grossGrosze: -2_000,
        vatRate: 23,
        annex15: false,
      },
    ]);
    expect(c.buckets).toEqual([
      {
        rate: 23,
        grossGrosze: -7_999,
        vatGrosze: -1_496,
        netGrosze: -6_503,
        before: { rate: 23, grossGrosze: 149_897, vatGrosze: 28_030, netGrosze: 121_867 },
        after: { rate: 23, grossGrosze: 141_898, vatGrosze: 26_534, netGrosze: 115_364 },
      },
    ]);
    expect([c.grossGrosze, c.vatGrosze, c.netGrosze]).toEqual([-7_999, -1_496, -6_503]);
  });

  test('successive refunds add up to the VAT of the final amount, with no drifting grosze', () => {
    const o = { ...order(), lines: [line('Kubek', 7, 1_001, 23)], shipping: [] };
    const one = (id: string) =>
      refund({ externalId: id, lines: [{ ref: null, invoiceLineRef: null, name: 'Kubek', sku: null, quantity: 1, unitPriceGrosze: 1_001, vatRate: 23 }] });
    const refunds = ['a', 'b', 'c', 'd', 'e', 'f'].map(one);
    const vats = refunds.map((r, i) => computeCorrection(o, refunds.slice(0, i), r).vatGrosze);
    const invoiceVat = computeTotals(o).vatGrosze;
    expect(invoiceVat + vats.reduce((a, b) => a + b, 0)).toBe(computeTotals({ ...o, lines: [line('Kubek', 1, 1_001, 23)] }).vatGrosze);
    // the per-refund rounding alone would give 187 each: the cumulative method alternates
    expect(new Set(vats).size).toBe(2);
  });

  test('returns beyond what remains after earlier corrections are unprocessable', () => {
    const two = refund({ lines: [{ ref: null, invoiceLineRef: null, name: 'Dzbanek', sku: null, quantity: 2, unitPriceGrosze: 5_999, vatRate: 23 }] });
    expect(codeOf(() => computeCorrection(order(), [], two))).toBe('no error');
    expect(codeOf(() => computeCorrection(order(), [two], two))).toBe('order_unprocessable refund.lines[0].quantity');
    expect(codeOf(() => computeCorrection(order(), [two], refund()))).toBe('no error');
  });

  test('shipping refunded twice is unprocessable; a partial shipping refund is a before/after pair with the reduction in P_10', () => {
    const ship = (g: number) => refund({ lines: [], shippingGrosze: g });
    expect(codeOf(() => computeCorrection(order(), [ship(2_000)], ship(2_000)))).toBe('order_unprocessable refund.shipping.price');
    const partial = computeCorrection(order(), [], ship(500));
    expect(partial.rows.map((r) => [r.state, r.name, r.quantity, r.unitPrice, r.discountGrosze, r.grossGrosze])).toEqual([
      ['before', 'Dostawa - Kurier DPD', 1, '20.00', 0, 2_000],
      ['after', 'Dostawa - Kurier DPD', 1, '20.00', 500, 1_500],
    ]);
    expect(partial.grossGrosze).toBe(-500);
  });

  test("refunded shipping takes the invoice's shipping rate", () => {
    const o = { ...order(), shipping: [{ ref: null, name: 'Paczkomat', grossGrosze: 1_080, vatRate: 8 as const }] };
    const c = computeCorrection(o, [], refund({ lines: [], shippingGrosze: 1_080 }));
    expect(c.buckets.map((b) => [b.rate, b.grossGrosze, b.vatGrosze])).toEqual([[8, -1_080, -80]]);
  });

  test.each([
    ['amount-only refund', refund({ lines: [] }), 'order_unprocessable refund'],
    [
      'unknown line',
      refund({ lines: [{ ref: null, invoiceLineRef: null, name: 'Toster', sku: null, quantity: 1, unitPriceGrosze: 100, vatRate: 23 }] }),
      'order_unprocessable refund.lines[0]',
    ],
    [
      'rate differs from the invoice',
      refund({ lines: [{ ref: null, invoiceLineRef: null, name: 'Dzbanek', sku: null, quantity: 1, unitPriceGrosze: 5_999, vatRate: 8 }] }),
      'order_unprocessable refund.lines[0]',
    ],
    [
      'price above the invoiced value',
      refund({ lines: [{ ref: null, invoiceLineRef: null, name: 'Dzbanek', sku: null, quantity: 3, unitPriceGrosze: 6_000, vatRate: 23 }] }),
      'order_unprocessable refund.lines[0].unit_price',
    ],
  ] as const)('%s → %s', (_, r, expected) => expect(codeOf(() => computeCorrection(order(), [], r))).toBe(expected));

  test('shipping refund of an invoice without shipping is unprocessable', () => {
    expect(codeOf(() => computeCorrection({ ...order(), shipping: [] }, [], refund({ lines: [], shippingGrosze: 100 })))).toBe(
      'order_unprocessable refund.shipping',
    );
  });

  test('lines linked by reference match even when renamed', () => {
    const o = { ...order(), lines: [{ ...line('Dzbanek 600', 3, 5_999, 23), ref: 'WC-1-2' }] };
    const r = refund({
      lines: [{ ref: 'WC-9-1', invoiceLineRef: 'WC-1-2', name: 'Dzbanek (renamed)', sku: null, quantity: 1, unitPriceGrosze: 5_999, vatRate: 23 }],
    });
    expect(computeCorrection(o, [], r).rows[0]).toMatchObject({ ref: 'WC-9-1', name: 'Dzbanek 600', quantity: -1 });
  });
});

/** A refund line of the coffee: invoiced 2 × 89.99 with a 10.00 discount → 169.98, i.e. 84.99 per bag. */
describe('computeCorrection: rows are reduced by what was invoiced (art. 29a ust. 10)', () => {
  const coffee = (): NormalizedOrder => ({ ...order(), lines: [line('Kawa', 2, 8_999, 8, 1_000)], shipping: [] });
  const back = (quantity: number, unitPriceGrosze: number, id = 'r'): NormalizedRefund =>
    refund({ externalId: id, lines: [{ ref: null, invoiceLineRef: null, name: 'Kawa', sku: null, quantity, unitPriceGrosze, vatRate: 8 }] });
  const rowsOf = (earlier: NormalizedRefund[], r: NormalizedRefund) =>
    computeCorrection(coffee(), earlier, r).rows.map((x) => [x.state, x.quantity, x.unitPrice, x.discountGrosze, x.grossGrosze]);

  // a returned bag is written at what the buyer paid for it, never as the list price with a negative "Rabat"
  test.each([
    ['one bag returned at its invoiced value', [], back(1, 8_499), [['difference', -1, '84.99', 0, -8_499]]],
    ['the last bag after the first', [back(1, 8_499, 'a')], back(1, 8_499), [['difference', -1, '84.99', 0, -8_499]]],
    ['both bags', [], back(2, 8_499), [['difference', -2, '84.99', 0, -16_998]]],
    [
      'a partial-value refund of 20.00 on one bag',
      [],
      back(1, 2_000),
      [
        ['before', 2, '89.99', 1_000, 16_998],
        ['after', 2, '89.99', 3_000, 14_998],
      ],
    ],
    ['returning a bag after a price reduction takes its reduced value', [back(1, 2_000, 'a')], back(1, 7_499), [['difference', -1, '74.99', 0, -7_499]]],
  ] as const)('%s', (_, earlier, r, expected) => expect(rowsOf([...earlier], r)).toEqual(expected));

  test.each([
    ['the undiscounted 89.99 per bag', back(1, 8_999), 'order_unprocessable refund.lines[0].unit_price'],
    ['one grosz above the invoiced 84.99', back(1, 8_500), 'order_unprocessable refund.lines[0].unit_price'],
    ['three bags of two', back(3, 8_499), 'order_unprocessable refund.lines[0].quantity'],
  ] as const)('refused: %s', (_, r, expected) => expect(codeOf(() => computeCorrection(coffee(), [], r))).toBe(expected));

  test('a value that is not a whole grosz per item: 3 × 6.6667 returned one by one at 6.67 and 6.66 takes exactly 20.00', () => {
    const o = { ...order(), lines: [line('Filtry', 3, 700, 23, 100)], shipping: [] };
    const one = (price: number, id: string) =>
      refund({ externalId: id, lines: [{ ref: null, invoiceLineRef: null, name: 'Filtry', sku: null, quantity: 1, unitPriceGrosze: price, vatRate: 23 }] });
    const rs = [one(667, 'a'), one(666, 'b'), one(667, 'c')];
    const gross = rs.map((r, i) => computeCorrection(o, rs.slice(0, i), r).grossGrosze);
    expect(gross).toEqual([-667, -666, -667]);
  });
});
