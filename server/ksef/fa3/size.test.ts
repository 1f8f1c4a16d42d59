import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import type { NormalizedLine, NormalizedOrder } from '@/server/orders/types';
import { normalizedOrder } from '@/test/fixtures/normalized-order';
import { buildCorrectionXml } from './build-correction';
import { buildInvoiceXml } from './build-invoice';
import { checkCorrectionFits, correctionSizeBound, invoiceSizeBound, KSEF_MAX_INVOICE_BYTES } from './size';
import { checkInvoiceFits } from './size-estimate';

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

  // The bounds build the order with a short seller and add the longest seller's extra bytes, measured once: exact
  // only while the seller fills Podmiot1 alone, which these builds with the longest seller texts check.
  describe('the bound is the document with the longest seller texts, number, ids and rate', () => {
    const wide = '&'.repeat(512);
    const seller = {
      nip: '5265877635',
      name: wide,
      address1: wide,
      address2: wide,
      email: `${'&'.repeat(127)}@${'&'.repeat(127)}`,
      phone: '&'.repeat(16),
      cashAccounting: true,
    };
    const worst = { number: 'X'.repeat(40), documentId: 'X'.repeat(50), systemInfo: 'KSeF Relay', generatedAt: new Date('2050-01-01T23:59:59Z') };
    const rate = { rate: '999999.999999', date: '2049-12-31', table: `${'9'.repeat(20)}/A/NBP/2049` };
    const bytes = (xml: string) => Buffer.byteLength(xml, 'utf8');

    test.each([
      ['PLN, 1 line', 1, 'PLN'],
      ['EUR, 10 lines', 10, 'EUR'],
      ['PLN, 200 lines', 200, 'PLN'],
    ] as const)('invoice: %s', (_, n, currency) => {
      const order = orderOf(
        Array.from({ length: n }, (_, i) => line(i, `Kawa & <mleko> ${i}`)),
        currency,
      );
      const full = buildInvoiceXml({ ...worst, seller, order, issueDate: '2050-01-01', exchangeRate: currency === 'PLN' ? undefined : rate });
      expect(invoiceSizeBound(order)).toBe(bytes(full));
    });

    test('correction', () => {
      const order = orderOf(
        Array.from({ length: 5 }, (_, i) => line(i, `Kawa ${i}`)),
        'EUR',
      );
      const refund = {
        externalId: 'r',
        reason: null,
        createdAt: null,
        shippingGrosze: null,
        shippingRef: null,
        lines: [{ ref: null, invoiceLineRef: null, name: 'Kawa 1', sku: 'SKU-1', quantity: 1, unitPriceGrosze: 100, vatRate: 23 as const }],
      };
      const full = buildCorrectionXml({
        ...worst,
        seller,
        original: {
          order,
          number: worst.number,
          issueDate: '2006-01-01',
          ksefNumber: '5265877635-20260101-FFFFFFFFFFFF-FF',
          annotations: { cashAccounting: true, splitPayment: true },
          exchangeRate: rate,
          documentId: worst.documentId,
        },
        earlierRefunds: [],
        refund,
        issueDate: '2050-01-01',
      });
      expect(correctionSizeBound(order, [], refund)).toBe(bytes(full));
    });
  });
});
