import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { formatGrosze } from '@/server/orders/money';
import { computeCorrection } from '@/server/orders/totals';
import { feeLine, fixtureOrder4817, fixtureRefund4822, wcOrder } from '@/test/fixtures/wc-payloads';
import { mapShopplatformOrder } from './map-order';
import { mapShopplatformRefund } from './map-refund';

function errorOf(fn: () => unknown): { code: string; param: string | undefined } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, param: err.param };
    throw err;
  }
  throw new Error('expected an AppError');
}

const refundOf = (id: number, over: Record<string, unknown>) => ({
  id,
  date_created: '2026-06-10T09:00:00',
  date_created_gmt: '2026-06-10T07:00:00',
  amount: '0.00',
  reason: '',
  refunded_by: 1,
  refunded_payment: true,
  meta_data: [],
  line_items: [],
  shipping_lines: [],
  fee_lines: [],
  tax_lines: [],
  ...over,
});

describe('mapShopplatformRefund', () => {
  test('fixture 4822: one returned jug and the whole shipping', () => {
    const r = mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822());
    expect(r).toEqual({
      externalId: '4822',
      reason: 'Zwrot 1 szt. dzbanka (uszkodzony w transporcie) oraz zwrot kosztów dostawy',
      createdAt: '2026-06-09T12:05:31.000Z',
      lines: [
        {
          ref: 'WC-4822-1101',
          invoiceLineRef: 'WC-4817-1002',
          name: 'Dzbanek do spieniania mleka 600 ml',
          sku: 'DZB-600',
          quantity: 1,
          unitPriceGrosze: 5_999,
          vatRate: 23,
        },
      ],
      shippingGrosze: 2_000,
      shippingRef: 'WC-4822-1102',
    });
  });

  test('a jug refunded for 49.99 of its 59.99 came back with a 10.00 fee kept, not a price cut on a jug the buyer keeps', () => {
    const wc = fixtureRefund4822() as { line_items: Record<string, unknown>[] };
    const refund = { ...wc, line_items: [{ ...wc.line_items[0], total: '-40.64', total_tax: '-9.35' }], shipping_lines: [] };
    const r = mapShopplatformRefund(fixtureOrder4817(), refund);
    expect(r.lines).toEqual([
      {
        ref: 'WC-4822-1101',
        invoiceLineRef: 'WC-4817-1002',
        name: 'Dzbanek do spieniania mleka 600 ml',
        sku: 'DZB-600',
        quantity: 1,
        unitPriceGrosze: 5_999,
        vatRate: 23,
        feeGrosze: 1_000,
      },
    ]);
    const c = computeCorrection(mapShopplatformOrder(fixtureOrder4817()), [], r);
    expect(c.rows.map((x) => [x.kind, x.state, x.quantity, x.unitPrice, x.grossGrosze])).toEqual([
      ['line', 'difference', -1, '59.99', -5_999],
      ['fee', 'difference', 1, '10.00', 1_000],
    ]);
    expect(c.grossGrosze).toBe(-4_999);
  });

  test('fixture 4822 against its invoice: -65.03 net, -14.96 VAT, -79.99 = -amount', () => {
    const order = mapShopplatformOrder(fixtureOrder4817());
    const c = computeCorrection(order, [], mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822()));
    expect([c.netGrosze, c.vatGrosze, c.grossGrosze]).toEqual([-6_503, -1_496, -7_999]);
    expect(fixtureRefund4822().amount).toBe('79.99');
  });

  test('a refunded value that does not divide by the quantity becomes two lines a grosz apart', () => {
    const order = wcOrder(7001, [{ id: 51, name: 'Filtry', quantity: 3, grossGrosze: 2_000, rate: 23, beforeCouponGrosze: 2_100 }]);
    const refund = refundOf(7002, {
      line_items: [
        {
          id: 61,
          name: 'Filtry',
          quantity: -2,
          total: '-10.84',
          total_tax: '-2.49',
          taxes: [{ id: 1, total: '-2.49', subtotal: '-2.49' }],
          meta_data: [{ id: 1, key: '_refunded_item_id', value: '51' }],
        },
      ],
    });
    const r = mapShopplatformRefund(order, refund);
    expect(r.lines.map((l) => [l.quantity, l.unitPriceGrosze])).toEqual([
      [1, 666],
      [1, 667],
    ]);
    expect(computeCorrection(mapShopplatformOrder(order), [], r).grossGrosze).toBe(-1_333);
  });

  test('a refunded fee returns its fee line', () => {
    const order = wcOrder(7003, [{ id: 52, name: 'Kubek', quantity: 1, grossGrosze: 3_999, rate: 23 }], {
      fee_lines: [feeLine(53, 'Opłata za pobranie', 500)],
    });
    const refund = refundOf(7004, {
      fee_lines: [
        {
          id: 62,
          name: 'Opłata za pobranie',
          total: '-4.07',
          total_tax: '-0.93',
          taxes: [{ id: 1, total: '-0.93' }],
          meta_data: [{ id: 1, key: '_refunded_item_id', value: '53' }],
        },
      ],
    });
    const r = mapShopplatformRefund(order, refund);
    expect(r.lines).toEqual([
      { ref: 'WC-7004-62', invoiceLineRef: 'WC-7003-53', name: 'Opłata za pobranie', sku: null, quantity: 1, unitPriceGrosze: 500, vatRate: 23 },
    ]);
    expect(computeCorrection(mapShopplatformOrder(order), [], r).rows[0]).toMatchObject({ name: 'Opłata za pobranie', quantity: -1, grossGrosze: -500 });
  });

  test.each([
    ['amount-only refund (no items)', refundOf(7005, { amount: '50.00' }), 'order_unprocessable', 'shopplatform_refund.line_items'],
    [
      'value-only refund of a line',
      refundOf(7006, {
        line_items: [{ id: 63, name: 'Dzbanek', quantity: 0, total: '-10.00', total_tax: '-2.30', taxes: [{ id: 1, total: '-2.3' }], meta_data: [] }],
      }),
      'order_unprocessable',
      'shopplatform_refund.line_items[0].quantity',
    ],
    [
      'refund line without tax',
      refundOf(7007, { line_items: [{ id: 64, name: 'Dzbanek', quantity: -1, total: '-59.99', total_tax: '0.00', taxes: [], meta_data: [] }] }),
      'vat_rate_missing',
      'shopplatform_refund.line_items[0].taxes',
    ],
    [
      'refund amounts as numbers',
      refundOf(7008, { line_items: [{ id: 65, name: 'Dzbanek', quantity: -1, total: -48.77, total_tax: '-11.22', taxes: [], meta_data: [] }] }),
      'parameter_invalid',
      'shopplatform_refund.line_items[0].total',
    ],
  ])('%s → %s at %s', (_, refund, code, param) => {
    expect(errorOf(() => mapShopplatformRefund(fixtureOrder4817(), refund))).toEqual({ code, param });
  });

  test('returning more jugs than remain after an earlier refund is unprocessable', () => {
    const order = mapShopplatformOrder(fixtureOrder4817());
    const jugs = (id: number, quantity: number) =>
      mapShopplatformRefund(
        fixtureOrder4817(),
        refundOf(id, {
          line_items: [
            {
              id: id + 1,
              name: 'Dzbanek do spieniania mleka 600 ml',
              quantity: -quantity,
              total: formatGrosze(-4_877 * quantity),
              total_tax: formatGrosze(-1_122 * quantity),
              taxes: [{ id: 1, total: '-1' }],
              meta_data: [{ id: 1, key: '_refunded_item_id', value: '1002' }],
            },
          ],
        }),
      );
    expect(computeCorrection(order, [jugs(8000, 2)], jugs(8010, 1)).grossGrosze).toBe(-5_999);
    expect(errorOf(() => computeCorrection(order, [jugs(8000, 2)], jugs(8010, 2)))).toEqual({ code: 'order_unprocessable', param: 'refund.lines[0].quantity' });
  });
});
