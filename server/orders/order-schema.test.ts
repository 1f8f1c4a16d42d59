import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { parseOrderInput, parseRefundInput } from './order-schema';

const validOrder = () => ({
  external_id: 'wc-4817',
  number: '4817',
  created_at: '2026-06-01T19:47:12Z',
  paid_at: '2026-06-01T21:48:03+02:00',
  currency: 'PLN',
  payment_method: 'transfer',
  buyer: {
    nip: 'PL 386-161-02-27',
    name: 'Biuro Projektowe Kreska Sp. z o.o.',
    address_line1: 'ul. Piotrkowska 120 lok. 4',
    address_line2: '90-006 Łódź',
    email: 'zakupy@kreska.example.pl',
  },
  lines: [
    { name: 'Ekspres ciśnieniowy Barista Pro 15 bar', sku: 'EXP-BP15', quantity: 1, unit_price: '1299.00', vat_rate: '23' },
    { name: 'Dzbanek do spieniania mleka 600 ml', sku: 'DZB-600', quantity: 3, unit_price: '59.99', vat_rate: '23' },
    { name: 'Kawa ziarnista Arabica Brazylia 1 kg', quantity: 2, unit_price: '99.90', discount: '20.00', vat_rate: '8' },
  ],
  shipping: [{ name: 'Dostawa - Kurier DPD', price: '20.00', vat_rate: '23' }],
});
type Order = ReturnType<typeof validOrder>;

function errorOf(fn: () => unknown): { code: string; param: string | undefined } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, param: err.param };
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('parseOrderInput', () => {
  test('normalises a valid order to integer grosze and ISO UTC instants', () => {
    const o = parseOrderInput(validOrder());
    expect(o).toMatchObject({
      externalId: 'wc-4817',
      number: '4817',
      paidAt: '2026-06-01T19:48:03.000Z',
      createdAt: '2026-06-01T19:47:12.000Z',
      currency: 'PLN',
      paymentMethod: 'transfer',
    });
    expect(o.buyer).toEqual({
      nip: '3861610227',
      name: 'Biuro Projektowe Kreska Sp. z o.o.',
      address1: 'ul. Piotrkowska 120 lok. 4',
      address2: '90-006 Łódź',
      countryCode: 'PL',
      email: 'zakupy@kreska.example.pl',
      customerNumber: null,
      jst: false,
      vatGroup: false,
      recipient: null,
    });
    expect(o.lines.map((l) => [l.unitPriceGrosze, l.discountGrosze, l.grossGrosze, l.vatRate])).toEqual([
      [129_900, 0, 129_900, 23],
      [5_999, 0, 17_997, 23],
      [9_990, 2_000, 17_980, 8],
    ]);
    expect(o.shipping).toEqual([{ ref: null, name: 'Dostawa - Kurier DPD', grossGrosze: 2_000, vatRate: 23 }]);
  });

  test('applies the defaults: number = external_id, PLN, card, no shipping', () => {
    const { number, currency, payment_method, shipping, created_at, ...rest } = validOrder();
    const o = parseOrderInput(rest);
    expect([o.number, o.currency, o.paymentMethod, o.shipping, o.createdAt]).toEqual(['wc-4817', 'PLN', 'card', [], null]);
  });

  test('drops free shipping and accepts lower-case currency codes', () => {
    const o = parseOrderInput({ ...validOrder(), currency: 'eur', shipping: [{ name: 'Odbiór osobisty', price: '0.00', vat_rate: '23' }] });
    expect([o.currency, o.shipping]).toEqual(['EUR', []]);
  });

  const cases: { name: string; edit: (o: Order) => unknown; code: string; param: string }[] = [
    { name: 'no order at all', edit: () => undefined, code: 'parameter_missing', param: 'order' },
    { name: 'order not an object', edit: () => 'x', code: 'parameter_invalid', param: 'order' },
    { name: 'missing external_id', edit: ({ external_id, ...o }) => o, code: 'parameter_missing', param: 'order.external_id' },
    { name: 'external_id with a slash', edit: (o) => ({ ...o, external_id: 'a/b' }), code: 'parameter_invalid', param: 'order.external_id' },
    { name: 'external_id of 65 characters', edit: (o) => ({ ...o, external_id: 'x'.repeat(65) }), code: 'parameter_invalid', param: 'order.external_id' },
    { name: 'created_at not a date-time', edit: (o) => ({ ...o, created_at: '2026-06-01' }), code: 'parameter_invalid', param: 'order.created_at' },
    { name: 'missing paid_at', edit: ({ paid_at, ...o }) => o, code: 'order_not_paid', param: 'order.paid_at' },
    { name: 'null paid_at', edit: (o) => ({ ...o, paid_at: null }), code: 'order_not_paid', param: 'order.paid_at' },
    { name: 'paid_at without a time zone', edit: (o) => ({ ...o, paid_at: '2026-06-01T21:48:03' }), code: 'parameter_invalid', param: 'order.paid_at' },
    { name: 'currency outside table A', edit: (o) => ({ ...o, currency: 'RUB' }), code: 'currency_not_supported', param: 'order.currency' },
    { name: 'currency with 8-decimal NBP rates', edit: (o) => ({ ...o, currency: 'IDR' }), code: 'currency_not_supported', param: 'order.currency' },
    { name: 'payment_method outside the enum', edit: (o) => ({ ...o, payment_method: 'paypal' }), code: 'parameter_invalid', param: 'order.payment_method' },
    { name: 'missing buyer', edit: ({ buyer, ...o }) => o, code: 'parameter_missing', param: 'order.buyer' },
    { name: 'missing NIP', edit: (o) => ({ ...o, buyer: { ...o.buyer, nip: undefined } }), code: 'buyer_nip_missing', param: 'order.buyer.nip' },
    { name: 'blank NIP', edit: (o) => ({ ...o, buyer: { ...o.buyer, nip: '  ' } }), code: 'buyer_nip_missing', param: 'order.buyer.nip' },
    { name: 'NIP with a typo', edit: (o) => ({ ...o, buyer: { ...o.buyer, nip: '5265877636' } }), code: 'buyer_nip_invalid', param: 'order.buyer.nip' },
    {
      name: 'EU VAT id instead of a NIP',
      edit: (o) => ({ ...o, buyer: { ...o.buyer, nip: 'DE123456789' } }),
      code: 'buyer_nip_invalid',
      param: 'order.buyer.nip',
    },
    { name: 'missing buyer name', edit: (o) => ({ ...o, buyer: { ...o.buyer, name: undefined } }), code: 'parameter_missing', param: 'order.buyer.name' },
    { name: 'bad buyer email', edit: (o) => ({ ...o, buyer: { ...o.buyer, email: 'nobody' } }), code: 'parameter_invalid', param: 'order.buyer.email' },
    { name: 'no lines', edit: (o) => ({ ...o, lines: [] }), code: 'parameter_invalid', param: 'order.lines' },
    { name: '1001 lines', edit: (o) => ({ ...o, lines: Array(1001).fill(o.lines[0]) }), code: 'parameter_invalid', param: 'order.lines' },
    {
      name: 'line name of 513 characters',
      edit: (o) => ({ ...o, lines: [o.lines[0], { ...o.lines[1], name: 'x'.repeat(513) }] }),
      code: 'parameter_invalid',
      param: 'order.lines[1].name',
    },
    {
      name: 'fractional quantity',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], quantity: 1.5 }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].quantity',
    },
    { name: 'zero quantity', edit: (o) => ({ ...o, lines: [{ ...o.lines[0], quantity: 0 }] }), code: 'parameter_invalid', param: 'order.lines[0].quantity' },
    {
      name: 'quantity as a string',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], quantity: '2' }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].quantity',
    },
    {
      name: 'unit_price as a JSON number',
      edit: (o) => ({ ...o, lines: [o.lines[0], o.lines[1], o.lines[2], { ...o.lines[0], unit_price: 12.3 }] }),
      code: 'parameter_invalid',
      param: 'order.lines[3].unit_price',
    },
    {
      name: 'unit_price with 3 decimals',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], unit_price: '12.345' }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].unit_price',
    },
    {
      name: 'unit_price in exponent form',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], unit_price: '1e3' }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].unit_price',
    },
    {
      name: 'missing unit_price',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], unit_price: undefined }] }),
      code: 'parameter_missing',
      param: 'order.lines[0].unit_price',
    },
    {
      name: 'negative unit_price',
      edit: (o) => ({ ...o, lines: [o.lines[0], { ...o.lines[1], unit_price: '-5.00' }] }),
      code: 'order_unprocessable',
      param: 'order.lines[1].unit_price',
    },
    {
      name: 'discount above the line value',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[1], discount: '180.00' }] }),
      code: 'order_unprocessable',
      param: 'order.lines[0].discount',
    },
    {
      name: 'missing vat_rate',
      edit: (o) => ({ ...o, lines: [o.lines[0], { ...o.lines[1], vat_rate: undefined }] }),
      code: 'vat_rate_missing',
      param: 'order.lines[1].vat_rate',
    },
    {
      name: 'vat_rate zw',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], vat_rate: 'zw' }] }),
      code: 'vat_rate_unsupported',
      param: 'order.lines[0].vat_rate',
    },
    {
      name: 'vat_rate 22',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], vat_rate: '22' }] }),
      code: 'vat_rate_unsupported',
      param: 'order.lines[0].vat_rate',
    },
    {
      name: 'vat_rate as a number',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], vat_rate: 23 }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].vat_rate',
    },
    {
      name: 'shipping without a rate',
      edit: (o) => ({ ...o, shipping: [{ name: 'DPD', price: '10.00' }] }),
      code: 'vat_rate_missing',
      param: 'order.shipping[0].vat_rate',
    },
    {
      name: 'negative shipping',
      edit: (o) => ({ ...o, shipping: [{ name: 'DPD', price: '-10.00', vat_rate: '23' }] }),
      code: 'order_unprocessable',
      param: 'order.shipping[0].price',
    },
    {
      name: 'total of zero',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], unit_price: '0.00' }], shipping: [] }),
      code: 'order_unprocessable',
      param: 'order.lines',
    },
  ];
  test.each(cases)('$name → $code at $param', ({ edit, code, param }) => {
    expect(errorOf(() => parseOrderInput(edit(validOrder())))).toEqual({ code, param });
  });

  test('several errors: the first in document order wins, whatever the key order of the JSON', () => {
    const { lines, buyer, ...head } = validOrder();
    const body = { lines: [{ ...lines[0], unit_price: 5 }], buyer: { ...buyer, nip: '1234567890' }, ...head, currency: 'XYZ' };
    expect(errorOf(() => parseOrderInput(body))).toEqual({ code: 'currency_not_supported', param: 'order.currency' });
    expect(errorOf(() => parseOrderInput({ ...body, currency: 'PLN' }))).toEqual({ code: 'buyer_nip_invalid', param: 'order.buyer.nip' });
    expect(errorOf(() => parseOrderInput({ ...body, currency: 'PLN', buyer }))).toEqual({ code: 'parameter_invalid', param: 'order.lines[0].unit_price' });
  });

  test("a line error comes before a later line's business error", () => {
    const o = validOrder();
    const body = {
      ...o,
      lines: [
        { ...o.lines[0], discount: '5000.00' },
        { ...o.lines[1], vat_rate: '7' },
      ],
    };
    expect(errorOf(() => parseOrderInput(body))).toEqual({ code: 'order_unprocessable', param: 'order.lines[0].discount' });
  });

  test('error messages name the parameter', () => {
    const o = validOrder();
    expect(() => parseOrderInput({ ...o, lines: [{ ...o.lines[0], unit_price: 12.3 }] })).toThrow(/order\.lines\[0\]\.unit_price: amounts are decimal strings/);
  });
});

describe('parseOrderInput: issue 13 fields and rules', () => {
  const now = new Date('2026-06-02T12:00:00Z');
  const recipient = { nip: '526-025-02-74', name: 'Szkoła nr 1', address_line1: 'ul. Szkolna 1', address_line2: '00-003 Warszawa' };
  const withBuyer = (extra: Record<string, unknown>) => (o: Order) => ({ ...o, buyer: { ...o.buyer, ...extra } });
  const cases: { name: string; edit: (o: Order) => unknown; code: string; param: string }[] = [
    { name: 'paid_at 6 minutes ahead', edit: (o) => ({ ...o, paid_at: '2026-06-02T12:06:00Z' }), code: 'order_not_paid', param: 'order.paid_at' },
    { name: 'paid_at 97 days ahead', edit: (o) => ({ ...o, paid_at: '2026-09-07T12:00:00Z' }), code: 'order_not_paid', param: 'order.paid_at' },
    { name: 'delivered_at not a date', edit: (o) => ({ ...o, delivered_at: '2026-06-01T10:00:00Z' }), code: 'parameter_invalid', param: 'order.delivered_at' },
    { name: 'delivered_at tomorrow', edit: (o) => ({ ...o, delivered_at: '2026-06-03' }), code: 'parameter_invalid', param: 'order.delivered_at' },
    {
      name: 'annex15 as a string',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], annex15: 'yes' }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].annex15',
    },
    { name: 'jst without recipient', edit: withBuyer({ jst: true }), code: 'parameter_missing', param: 'order.buyer.recipient' },
    {
      name: 'jst and vat_group together',
      edit: withBuyer({ jst: true, vat_group: true, recipient }),
      code: 'parameter_invalid',
      param: 'order.buyer.vat_group',
    },
    { name: 'recipient without a flag', edit: withBuyer({ recipient }), code: 'parameter_invalid', param: 'order.buyer.recipient' },
    {
      name: 'recipient NIP with a typo',
      edit: withBuyer({ vat_group: true, recipient: { ...recipient, nip: '5260250275' } }),
      code: 'buyer_nip_invalid',
      param: 'order.buyer.recipient.nip',
    },
    {
      name: 'a name of nothing but forbidden characters',
      edit: (o) => ({ ...o, lines: [{ ...o.lines[0], name: '\u0085\uFDD0\u007F' }] }),
      code: 'parameter_invalid',
      param: 'order.lines[0].name',
    },
  ];
  test.each(cases)('$name → $code at $param', ({ edit, code, param }) => {
    expect(errorOf(() => parseOrderInput(edit(validOrder()), now))).toEqual({ code, param });
  });

  test('paid_at within 5 minutes of clock skew, delivered_at today, annex15, a VAT-group member: accepted and normalised', () => {
    const o = parseOrderInput(
      {
        ...validOrder(),
        paid_at: '2026-06-02T12:04:59Z',
        delivered_at: '2026-06-02',
        lines: [{ ...validOrder().lines[0], annex15: true }],
        buyer: { ...validOrder().buyer, vat_group: true, recipient },
      },
      now,
    );
    expect([o.deliveredAt, o.lines[0]?.annex15, o.buyer.jst, o.buyer.vatGroup, o.buyer.recipient]).toEqual([
      '2026-06-02',
      true,
      false,
      true,
      { nip: '5260250274', name: 'Szkoła nr 1', address1: 'ul. Szkolna 1', address2: '00-003 Warszawa' },
    ]);
  });

  test('text is cleaned by the FA(3) sanitizer: forbidden characters become spaces, whitespace collapses', () => {
    const o = parseOrderInput(
      {
        ...validOrder(),
        buyer: { ...validOrder().buyer, name: 'Biuro\u0085Kreska  Sp.\u009Fz o.o.' },
        lines: [{ ...validOrder().lines[0], name: 'Kawa\uFDD0\u{10FFFE}Brazylia' }],
      },
      now,
    );
    expect([o.buyer.name, o.lines[0]?.name]).toEqual(['Biuro Kreska Sp. z o.o.', 'Kawa Brazylia']);
  });
});

describe('parseRefundInput', () => {
  const validRefund = () => ({
    external_id: 'wc-refund-4822',
    reason: 'Zwrot towaru',
    created_at: '2026-06-09T12:05:31Z',
    lines: [{ name: 'Dzbanek do spieniania mleka 600 ml', sku: 'DZB-600', quantity: 1, unit_price: '59.99', vat_rate: '23' }],
    shipping: { price: '20.00' },
  });

  test('normalises lines and shipping to grosze', () => {
    expect(parseRefundInput(validRefund())).toEqual({
      externalId: 'wc-refund-4822',
      reason: 'Zwrot towaru',
      createdAt: '2026-06-09T12:05:31.000Z',
      lines: [
        { ref: null, invoiceLineRef: null, name: 'Dzbanek do spieniania mleka 600 ml', sku: 'DZB-600', quantity: 1, unitPriceGrosze: 5_999, vatRate: 23 },
      ],
      shippingGrosze: 2_000,
      shippingRef: null,
    });
  });

  test('restocking_fee: kept from the refund of returned items; never more than they are worth', () => {
    const line = validRefund().lines[0]!;
    expect(parseRefundInput({ ...validRefund(), lines: [{ ...line, quantity: 2, restocking_fee: '10.00' }] }).lines[0]).toMatchObject({
      quantity: 2,
      unitPriceGrosze: 5_999,
      feeGrosze: 1_000,
    });
    expect(errorOf(() => parseRefundInput({ ...validRefund(), lines: [{ ...line, restocking_fee: '60.00' }] }))).toEqual({
      code: 'order_unprocessable',
      param: 'refund.lines[0].restocking_fee',
    });
  });

  test('shipping alone is a valid refund', () => {
    const { lines, ...rest } = validRefund();
    expect(parseRefundInput(rest)).toMatchObject({ lines: [], shippingGrosze: 2_000 });
  });

  type Refund = ReturnType<typeof validRefund>;
  const cases: { name: string; edit: (r: Refund) => unknown; code: string; param: string }[] = [
    { name: 'no refund', edit: () => undefined, code: 'parameter_missing', param: 'refund' },
    { name: 'missing external_id', edit: ({ external_id, ...r }) => r, code: 'parameter_missing', param: 'refund.external_id' },
    { name: 'reason over 256 characters', edit: (r) => ({ ...r, reason: 'x'.repeat(257) }), code: 'parameter_invalid', param: 'refund.reason' },
    {
      name: 'negative quantity',
      edit: (r) => ({ ...r, lines: [{ ...r.lines[0], quantity: -1 }] }),
      code: 'parameter_invalid',
      param: 'refund.lines[0].quantity',
    },
    {
      name: 'price as a number',
      edit: (r) => ({ ...r, lines: [{ ...r.lines[0], unit_price: 59.99 }] }),
      code: 'parameter_invalid',
      param: 'refund.lines[0].unit_price',
    },
    { name: 'missing rate', edit: (r) => ({ ...r, lines: [{ ...r.lines[0], vat_rate: null }] }), code: 'vat_rate_missing', param: 'refund.lines[0].vat_rate' },
    {
      name: 'exempt rate',
      edit: (r) => ({ ...r, lines: [{ ...r.lines[0], vat_rate: 'zw' }] }),
      code: 'vat_rate_unsupported',
      param: 'refund.lines[0].vat_rate',
    },
    { name: 'shipping price missing', edit: (r) => ({ ...r, shipping: {} }), code: 'parameter_missing', param: 'refund.shipping.price' },
    { name: 'amount-only refund', edit: ({ lines, shipping, ...r }) => r, code: 'order_unprocessable', param: 'refund' },
    { name: 'empty lines and zero shipping', edit: (r) => ({ ...r, lines: [], shipping: { price: '0.00' } }), code: 'order_unprocessable', param: 'refund' },
  ];
  test.each(cases)('$name → $code at $param', ({ edit, code, param }) => {
    expect(errorOf(() => parseRefundInput(edit(validRefund())))).toEqual({ code, param });
  });
});
