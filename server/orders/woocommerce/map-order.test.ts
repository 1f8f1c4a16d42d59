import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { warsawDate } from '@/server/calendar/dates';
import { computeTotals } from '@/server/orders/totals';
import { feeLine, fixtureOrder4817, type ItemSpec, lineItem, shippingLine, wcOrder, wcOrder4830Eur } from '@/test/fixtures/wc-payloads';
import { mapShopplatformOrder } from './map-order';

function errorOf(fn: () => unknown): { code: string; param: string | undefined } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, param: err.param };
    throw err;
  }
  throw new Error('expected an AppError');
}

const mug: ItemSpec = { id: 11, name: 'Kubek ceramiczny 300 ml', sku: 'KUB-300', quantity: 4, grossGrosze: 15_996, rate: 23 };
const coffee: ItemSpec = { id: 12, name: 'Kawa mielona 250 g', sku: 'KAW-250', quantity: 3, grossGrosze: 8_970, rate: 8 };

describe('mapShopplatformOrder', () => {
  test('fixture 4817: lines, shipping, buyer and dates', () => {
    const o = mapShopplatformOrder(fixtureOrder4817());
    expect(o).toMatchObject({
      externalId: '4817',
      number: '4817',
      currency: 'PLN',
      paymentMethod: 'transfer',
      paidAt: '2026-06-01T19:48:03.000Z',
      createdAt: '2026-06-01T19:47:12.000Z',
    });
    expect(o.buyer).toEqual({
      nip: '3861610227',
      name: 'Biuro Projektowe Kreska Sp. z o.o.',
      address1: 'ul. Piotrkowska 120 lok. 4',
      address2: '90-006 Łódź',
      countryCode: 'PL',
      email: 'zakupy@kreska.example.pl',
      customerNumber: '57',
      jst: false,
      vatGroup: false,
      recipient: null,
    });
    expect(o.lines).toEqual([
      {
        ref: 'WC-4817-1001',
        name: 'Ekspres ciśnieniowy Barista Pro 15 bar',
        sku: 'EXP-BP15',
        quantity: 1,
        unitPriceGrosze: 129_900,
        discountGrosze: 0,
        grossGrosze: 129_900,
        vatRate: 23,
        annex15: false,
      },
      {
        ref: 'WC-4817-1002',
        name: 'Dzbanek do spieniania mleka 600 ml',
        sku: 'DZB-600',
        quantity: 3,
        unitPriceGrosze: 5_999,
        discountGrosze: 0,
        grossGrosze: 17_997,
        vatRate: 23,
        annex15: false,
      },
      {
        ref: 'WC-4817-1003',
        name: 'Kawa ziarnista Arabica Brazylia 1 kg',
        sku: 'KAW-ARB-1KG',
        quantity: 2,
        unitPriceGrosze: 8_990,
        discountGrosze: 0,
        grossGrosze: 17_980,
        vatRate: 8,
        annex15: false,
      },
    ]);
    expect(o.shipping).toEqual([{ ref: 'WC-4817-1004', name: 'Dostawa - Kurier DPD', grossGrosze: 2_000, vatRate: 23 }]);
    expect(warsawDate(o.paidAt)).toBe('2026-06-01');
  });

  test('fixture 4817: per-line tax 293.61 in WooCommerce, 293.62 by the gross method, same gross total', () => {
    const wc = fixtureOrder4817();
    const t = computeTotals(mapShopplatformOrder(wc));
    expect(wc.total_tax).toBe('293.61');
    expect([t.grossGrosze, t.vatGrosze]).toEqual([167_877, 29_362]);
    expect(t.buckets.map((b) => [b.rate, b.vatGrosze])).toEqual([
      [23, 28_030],
      [8, 1_332],
    ]);
  });

  test('EUR order paid by card, three rates would make three buckets', () => {
    const o = mapShopplatformOrder(wcOrder4830Eur());
    expect([o.currency, o.paymentMethod, o.buyer.email, o.buyer.customerNumber]).toEqual(['EUR', 'card', null, null]);
    expect(computeTotals(o).buckets.map((b) => [b.rate, b.grossGrosze, b.vatGrosze])).toEqual([
      [23, 51_300, 9_593],
      [8, 10_750, 796],
    ]);
  });

  test('several rates, including 5 % and 0 %', () => {
    const o = mapShopplatformOrder(
      wcOrder(5001, [
        mug,
        coffee,
        { id: 13, name: 'Książka „Kawa od ziarna”', quantity: 1, grossGrosze: 5_990, rate: 5 },
        { id: 14, name: 'Bon podarunkowy', quantity: 1, grossGrosze: 10_000, rate: 0 },
      ]),
    );
    expect(o.lines.map((l) => l.vatRate)).toEqual([23, 8, 5, 0]);
    expect(computeTotals(o).buckets.map((b) => b.rate)).toEqual([23, 8, 5, 0]);
  });

  test('a coupon becomes the line discount; the gross charged stays exact', () => {
    // 10 % coupon: 4 mugs 159.96 → 143.96, 3 coffees 89.70 → 80.73
    const o = mapShopplatformOrder(
      wcOrder(
        5002,
        [
          { ...mug, grossGrosze: 14_396, beforeCouponGrosze: 15_996 },
          { ...coffee, grossGrosze: 8_073, beforeCouponGrosze: 8_970 },
        ],
        {
          coupon_lines: [{ id: 99, code: 'kawa10', discount: '22.01', discount_tax: '2.76' }],
        },
      ),
    );
    expect(o.lines.map((l) => [l.quantity, l.unitPriceGrosze, l.discountGrosze, l.grossGrosze])).toEqual([
      [4, 3_999, 1_600, 14_396],
      [3, 2_990, 897, 8_073],
    ]);
  });

  test('a coupon that leaves no whole-grosz unit price still keeps quantity × price − discount = gross', () => {
    const o = mapShopplatformOrder(wcOrder(5003, [{ id: 21, name: 'Filtry papierowe', quantity: 3, grossGrosze: 2_000, rate: 23, beforeCouponGrosze: 2_100 }]));
    const [l] = o.lines;
    expect(l && l.quantity * l.unitPriceGrosze - l.discountGrosze).toBe(2_000);
    expect(l?.discountGrosze).toBeGreaterThanOrEqual(100);
  });

  test('a line value that does not divide by its quantity gets no invented discount: 7 items for 86.01', () => {
    const o = mapShopplatformOrder(wcOrder(5005, [{ id: 22, name: 'Kapsułki', quantity: 7, grossGrosze: 8_601, rate: 23 }]));
    // 12.287142… each: the unit price rounded to the grosz, no discount; the invoice prints P_9B 12.28714286
    expect(o.lines.map((l) => [l.quantity, l.unitPriceGrosze, l.discountGrosze, l.grossGrosze])).toEqual([[7, 1_229, 0, 8_601]]);
  });

  test('free shipping is no row; a payment fee is a line', () => {
    const o = mapShopplatformOrder(
      wcOrder(5004, [mug], { shipping_lines: [shippingLine(31, 'Darmowa dostawa', 0)], fee_lines: [feeLine(32, 'Opłata za płatność za pobraniem', 500)] }),
    );
    expect(o.shipping).toEqual([]);
    expect(o.lines.at(-1)).toEqual({
      ref: 'WC-5004-32',
      name: 'Opłata za płatność za pobraniem',
      sku: null,
      quantity: 1,
      unitPriceGrosze: 500,
      discountGrosze: 0,
      grossGrosze: 500,
      vatRate: 23,
      annex15: false,
    });
  });

  test('issue 13: date_paid in the future is not a payment; annex-15 items by meta; names cleaned like /v1 input', () => {
    const now = new Date('2026-06-02T12:00:00Z');
    expect(() => mapShopplatformOrder(wcOrder(5010, [mug], { date_paid_gmt: '2026-06-03T12:00:00' }), { now })).toThrow(
      expect.objectContaining({ code: 'order_not_paid', param: 'shopplatform_order.date_paid_gmt' }),
    );
    const wc = wcOrder(
      5011,
      [
        { ...mug, name: 'Kubek\u0085Retro' },
        { ...mug, id: 12 },
      ],
      { date_paid_gmt: '2026-06-02T12:04:00' },
    );
    (wc.line_items as { meta_data: unknown[] }[])[0]!.meta_data = [{ id: 1, key: '_ksef_annex15', value: 'yes' }];
    const o = mapShopplatformOrder(wc, { now });
    expect(o.lines.map((l) => [l.name, l.annex15])).toEqual([
      ['Kubek Retro', true],
      [mug.name, false],
    ]);
  });

  test('HTML entities in names are decoded', () => {
    const o = mapShopplatformOrder(wcOrder(5005, [{ ...mug, name: 'Kubek &ndash; biały &amp; czarny &#8222;Retro&#8221;' }]));
    expect(o.lines[0]?.name).toBe('Kubek – biały & czarny „Retro”');
  });

  test('NIP from block-checkout fields, EU VAT plugins and custom key lists', () => {
    const base = wcOrder(5006, [mug]);
    const withMeta = (meta: { key: string; value: unknown }[]) => ({ ...base, meta_data: meta.map((m, i) => ({ id: i, ...m })) });
    expect(mapShopplatformOrder(withMeta([{ key: '_wc_billing/firma/nip', value: '526-587-76-35' }])).buyer.nip).toBe('5265877635');
    expect(mapShopplatformOrder(withMeta([{ key: '_billing_vat_number', value: 'PL6808208874' }])).buyer.nip).toBe('6808208874');
    expect(mapShopplatformOrder(withMeta([{ key: 'my_tax_id', value: 5265877635 }]), { nipMetaKeys: ['my_tax_id'] }).buyer.nip).toBe('5265877635');
    expect(mapShopplatformOrder({ ...withMeta([]), billing: { ...(base.billing as object), vat_number: 'PL 386 161 02 27' } }).buyer.nip).toBe('3861610227');
  });

  test('a paid cash-on-delivery order pays in cash; a late-night payment keeps its Warsaw date', () => {
    const o = mapShopplatformOrder(wcOrder(5007, [mug], { payment_method: 'cod', date_paid_gmt: '2026-06-02T22:20:00' }));
    expect(o.paymentMethod).toBe('cash');
    expect(warsawDate(o.paidAt)).toBe('2026-06-03');
  });

  const errors: { name: string; order: () => unknown; code: string; param: string }[] = [
    { name: 'cancelled', order: () => wcOrder(6001, [mug], { status: 'cancelled' }), code: 'order_cancelled', param: 'shopplatform_order.status' },
    { name: 'refunded', order: () => wcOrder(6002, [mug], { status: 'refunded' }), code: 'order_cancelled', param: 'shopplatform_order.status' },
    { name: 'failed', order: () => wcOrder(6003, [mug], { status: 'failed' }), code: 'order_cancelled', param: 'shopplatform_order.status' },
    {
      name: 'pending payment',
      order: () => wcOrder(6004, [mug], { status: 'pending', date_paid_gmt: null }),
      code: 'order_not_paid',
      param: 'shopplatform_order.status',
    },
    {
      name: 'cash on delivery on hold',
      order: () => wcOrder(6005, [mug], { status: 'on-hold', payment_method: 'cod', date_paid_gmt: null }),
      code: 'order_not_paid',
      param: 'shopplatform_order.status',
    },
    {
      name: 'cash on delivery processing (date_paid stamped, no money yet)',
      order: () => wcOrder(6006, [mug], { status: 'processing', payment_method: 'cod' }),
      code: 'order_not_paid',
      param: 'shopplatform_order.status',
    },
    {
      name: 'processing without date_paid',
      order: () => wcOrder(6007, [mug], { status: 'processing', date_paid_gmt: null }),
      code: 'order_not_paid',
      param: 'shopplatform_order.date_paid_gmt',
    },
    { name: 'rouble order', order: () => wcOrder(6008, [mug], { currency: 'RUB' }), code: 'currency_not_supported', param: 'shopplatform_order.currency' },
    {
      name: 'B2C order without NIP',
      order: () => wcOrder(6009, [mug], { meta_data: [{ id: 1, key: 'is_vat_exempt', value: 'no' }] }),
      code: 'buyer_nip_missing',
      param: 'shopplatform_order.meta_data',
    },
    {
      name: 'NIP with a typo',
      order: () =>
        wcOrder(6010, [mug], {
          meta_data: [
            { id: 1, key: 'is_vat_exempt', value: 'no' },
            { id: 2, key: '_billing_nip', value: '526-587-76-36' },
          ],
        }),
      code: 'buyer_nip_invalid',
      param: 'shopplatform_order.meta_data[1].value',
    },
    {
      name: 'German VAT id',
      order: () => wcOrder(6011, [mug], { meta_data: [{ id: 1, key: 'vat_number', value: 'DE123456789' }] }),
      code: 'buyer_nip_invalid',
      param: 'shopplatform_order.meta_data[0].value',
    },
    {
      name: 'negative fee (discount as a fee)',
      order: () => wcOrder(6012, [mug], { fee_lines: [feeLine(41, 'Rabat stałego klienta', -1_000)] }),
      code: 'order_unprocessable',
      param: 'shopplatform_order.fee_lines[0].total',
    },
    {
      name: 'untaxed fee',
      order: () =>
        wcOrder(6013, [mug], { fee_lines: [{ ...feeLine(42, 'Pakowanie na prezent', 500), tax_status: 'none', total: '5.00', total_tax: '0.00', taxes: [] }] }),
      code: 'vat_rate_missing',
      param: 'shopplatform_order.fee_lines[0].taxes',
    },
    {
      name: 'line with no tax at all',
      order: () => wcOrder(6014, [mug], { line_items: [{ ...lineItem(mug), total: '159.96', total_tax: '0.00', taxes: [] }] }),
      code: 'vat_rate_missing',
      param: 'shopplatform_order.line_items[0].taxes',
    },
    {
      name: '22 % rate from an old tax table',
      order: () => wcOrder(6015, [mug], { tax_lines: [{ rate_id: 1, rate_percent: 22 }] }),
      code: 'vat_rate_unsupported',
      param: 'shopplatform_order.line_items[0].taxes',
    },
    {
      name: 'stacked taxes',
      order: () =>
        wcOrder(6016, [mug], {
          line_items: [
            {
              ...lineItem(mug),
              taxes: [
                { id: 1, total: '29.91' },
                { id: 2, total: '0.50' },
              ],
            },
          ],
        }),
      code: 'vat_rate_unsupported',
      param: 'shopplatform_order.line_items[0].taxes',
    },
    {
      name: 'tax rate without rate_percent (WooCommerce < 3.7)',
      order: () => wcOrder(6017, [mug], { tax_lines: [{ rate_id: 1 }] }),
      code: 'vat_rate_missing',
      param: 'shopplatform_order.line_items[0].taxes',
    },
    {
      name: '100 % coupon',
      order: () => wcOrder(6018, [{ ...mug, grossGrosze: 0, beforeCouponGrosze: 15_996 }], { shipping_lines: [] }),
      code: 'order_unprocessable',
      param: 'shopplatform_order.total',
    },
    {
      name: 'total that does not match the items',
      order: () => ({ ...wcOrder(6019, [mug]), total: '999.99' }),
      code: 'order_unprocessable',
      param: 'shopplatform_order.total',
    },
    {
      name: 'amount as a JSON number',
      order: () => wcOrder(6020, [mug], { line_items: [{ ...lineItem(mug), total: 130.05 }] }),
      code: 'parameter_invalid',
      param: 'shopplatform_order.line_items[0].total',
    },
    {
      name: 'no line_items',
      order: () => {
        const { line_items, ...o } = wcOrder(6021, [mug]);
        return o;
      },
      code: 'parameter_missing',
      param: 'shopplatform_order.line_items',
    },
    {
      name: 'no buyer address',
      order: () => wcOrder(6022, [mug], { billing: { company: 'Pracownia Nowak', email: 'a@b.pl' } }),
      code: 'parameter_missing',
      param: 'shopplatform_order.billing.address_1',
    },
  ];
  test.each(errors)('$name → $code at $param', ({ order, code, param }) => {
    expect(errorOf(() => mapShopplatformOrder(order()))).toEqual({ code, param });
  });
});
