import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import type { NormalizedLine, NormalizedOrder } from '@/server/orders/types';
import { buildInvoiceXml } from './build-invoice';
import { checkCorrectionFits, checkInvoiceFits, invoiceSizeBound, KSEF_MAX_INVOICE_BYTES } from './size';
import { normalizedOrder } from '@/test/fixtures/normalized-order';

const line = (i: number, name: string): NormalizedLine => ({
  ref: null,
  name,
  sku: `SKU-${i}`,
  quantity: 3,
  unitPriceGrosze: 12_345,
  discountGrosze: 0,
  grossGrosze: 37_035,
  vatRate: 23,
  annex15: false,
});
const orderOf = (lines: NormalizedLine[], currency: NormalizedOrder['currency'] = 'PLN'): NormalizedOrder =>
  normalizedOrder({ externalId: 'big', number: 'big', currency, lines });
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return `${err.code} ${err.param}`;
    throw err;
  }
  return 'fits';
};

describe('the KSeF size limit, checked before a number is used', () => {
  test.each([
    ['1000 lines with short names', 1000, 'Kubek', 'fits'],
    ['1000 lines with 512-character Polish names', 1000, 'Żółć '.repeat(103).slice(0, 512), 'order_unprocessable order.lines'],
  ])('%s → %s', (_, n, name, expected) => {
    const order = orderOf(Array.from({ length: n }, (_, i) => line(i, name)));
    expect(codeOf(() => checkInvoiceFits(order, 'order.lines'))).toBe(expected);
  });

  test('the bound is above the real document for any seller, number and rate', () => {
    const order = orderOf(
      Array.from({ length: 50 }, (_, i) => line(i, `Kawa ${i}`)),
      'EUR',
    );
    const real = buildInvoiceXml({
      seller: {
        nip: '5265877635',
        name: 'Kawowy Świat Sp. z o.o.',
        address1: 'ul. Marszałkowska 100/5',
        address2: '00-026 Warszawa',
        email: 'f@k.pl',
        phone: '+48 22 123 45 67',
      },
      order,
      number: 'FV/2026/06/123456',
      documentId: 'inv_0123456789abcdefghijABCDEF',
      issueDate: '2026-06-03',
      exchangeRate: { rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' },
      systemInfo: 'KSeF Relay',
    });
    expect(invoiceSizeBound(order)).toBeGreaterThan(Buffer.byteLength(real, 'utf8'));
  });

  test('a correction that would not fit is refused at intake too', () => {
    const name = 'Żółć '.repeat(103).slice(0, 512);
    const order = orderOf(Array.from({ length: 700 }, (_, i) => line(i, name)));
    expect(codeOf(() => checkInvoiceFits(order, 'order.lines'))).toBe('fits');
    // a price reduction on every line: before and after rows, twice the rows of the invoice
    const reduce = {
      externalId: 'r',
      reason: null,
      createdAt: null,
      shippingGrosze: null,
      shippingRef: null,
      lines: order.lines.map((l) => ({ ref: null, invoiceLineRef: null, name: l.name, sku: l.sku, quantity: 1, unitPriceGrosze: 100, vatRate: l.vatRate })),
    };
    expect(codeOf(() => checkCorrectionFits(order, [], reduce, 'refund.lines'))).toBe('order_unprocessable refund.lines');
    expect(KSEF_MAX_INVOICE_BYTES).toBe(1_000_000);
  });
});
