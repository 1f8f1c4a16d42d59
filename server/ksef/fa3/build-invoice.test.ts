import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import { mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import { fixtureOrder4817, readFixture, wcOrder, wcOrder4830Eur } from '@/test/fixtures/wc-payloads';
import type { NormalizedOrder } from '@/server/orders/types';
import { validateXml } from '@/server/ksef/xsd';
import { buildInvoiceXml, type InvoiceInput } from './build-invoice';
import { checkSums, type Seller } from './parts';
import { allAt, textAt, xmlTree } from './xml-tree';

const SELLER: Seller = {
  nip: '5265877635',
  name: 'Kawowy Świat Sp. z o.o.',
  address1: 'ul. Marszałkowska 100/5',
  address2: '00-026 Warszawa',
  email: 'faktury@kawowyswiat.example.pl',
  phone: '+48 22 123 45 67',
};
const SELLER_NO_CONTACT: Seller = { ...SELLER, email: null, phone: null };

function build(input: Partial<InvoiceInput> & { order: NormalizedOrder }): string {
  const xml = buildInvoiceXml({ seller: SELLER, number: 'FV/2026/06/0001', issueDate: '2026-06-03', systemInfo: 'ksef-relay test', ...input });
  expect(validateXml(xml, 'fa3')).toEqual({ ok: true }); // every document the tests make passes the official schema
  return xml;
}

function buildError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return `${err.code}: ${err.message}`;
    throw err;
  }
  return 'no error';
}

describe('buildInvoiceXml against the fixtures', () => {
  test('PLN order 4817 through the WooCommerce mapping equals fa3-vat-pln-order-4817.xml', () => {
    const xml = build({
      order: mapShopplatformOrder(fixtureOrder4817()),
      number: 'FV/2026/06/0042',
      issueDate: '2026-06-02',
      issuePlace: 'Warszawa',
      systemInfo: 'woo-ksef',
    });
    expect(xmlTree(xml, ['DataWytworzeniaFa'])).toEqual(xmlTree(readFixture('fa3-vat-pln-order-4817.xml'), ['DataWytworzeniaFa']));
  });

  test('EUR order 4830 equals fa3-vat-eur-order-4830.xml, with KursWaluty on rows and P_14_xW in PLN', () => {
    const xml = build({
      seller: SELLER_NO_CONTACT,
      order: mapShopplatformOrder(wcOrder4830Eur()),
      number: 'FV/2026/06/0017',
      issueDate: '2026-06-01',
      issuePlace: 'Warszawa',
      systemInfo: 'woo-ksef',
      exchangeRate: { rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' },
    });
    expect(xmlTree(xml, ['DataWytworzeniaFa'])).toEqual(xmlTree(readFixture('fa3-vat-eur-order-4830.xml'), ['DataWytworzeniaFa']));
  });

  test('the comparison sees a one-grosz difference and a missing element', () => {
    const fixture = readFixture('fa3-vat-pln-order-4817.xml');
    expect(xmlTree(fixture.replace('<P_15>1678.77</P_15>', '<P_15>1678.78</P_15>'))).not.toEqual(xmlTree(fixture));
    expect(xmlTree(fixture.replace('<P_1M>Warszawa</P_1M>', ''))).not.toEqual(xmlTree(fixture));
    expect(allAt(xmlTree(fixture), 'Fa/FaWiersz')).toHaveLength(4);
  });

  test('DataWytworzeniaFa is the generation time in UTC with Z', () => {
    const xml = build({ order: mapShopplatformOrder(fixtureOrder4817()), generatedAt: new Date('2026-06-02T08:30:00.123Z') });
    expect(textAt(xmlTree(xml), 'Naglowek/DataWytworzeniaFa')).toBe('2026-06-02T08:30:00Z');
  });
});

describe('buildInvoiceXml', () => {
  const mug = { id: 11, name: 'Kubek ceramiczny 300 ml', sku: 'KUB-300', quantity: 4, grossGrosze: 15_996, rate: 23 as const };

  test('all four rates: 0 % is 0 KR in P_13_6_1, 5 % in P_13_3/P_14_3', () => {
    const order = mapShopplatformOrder(
      wcOrder(5001, [
        mug,
        { id: 12, name: 'Kawa', quantity: 3, grossGrosze: 8_970, rate: 8 },
        { id: 13, name: 'Książka', quantity: 1, grossGrosze: 5_990, rate: 5 },
        { id: 14, name: 'Bon', quantity: 1, grossGrosze: 10_000, rate: 0 },
      ]),
    );
    const t = xmlTree(build({ order }));
    expect(['P_13_1', 'P_14_1', 'P_13_2', 'P_14_2', 'P_13_3', 'P_14_3', 'P_13_6_1', 'P_15'].map((p) => textAt(t, `Fa/${p}`))).toEqual([
      '143.05',
      '32.90',
      '83.06',
      '6.64',
      '57.05',
      '2.85',
      '100.00',
      '425.55',
    ]);
    expect(allAt(t, 'Fa/FaWiersz').map((r) => textAt(r, 'P_12'))).toEqual(['23', '8', '5', '0 KR', '23']);
  });

  test('the same day for payment and issue: no P_6; a later issue date: P_6 is the Warsaw payment date', () => {
    const order = mapShopplatformOrder(wcOrder(5002, [mug], { date_paid_gmt: '2026-06-02T22:30:00' }));
    expect(textAt(xmlTree(build({ order, issueDate: '2026-06-03' })), 'Fa/P_6')).toBeNull();
    const later = xmlTree(build({ order, issueDate: '2026-06-04' }));
    expect([textAt(later, 'Fa/P_6'), textAt(later, 'Fa/Platnosc/DataZaplaty')]).toEqual(['2026-06-03', '2026-06-03']);
  });

  test('one discount convention: P_9B is the price before the discount (two decimals), P_10 the discount', () => {
    const order = mapShopplatformOrder(
      wcOrder(
        5003,
        [
          { ...mug, grossGrosze: 14_396, beforeCouponGrosze: 15_996 },
          { id: 21, name: 'Filtry papierowe', quantity: 3, grossGrosze: 2_000, rate: 23, beforeCouponGrosze: 2_100 },
        ],
        { shipping_lines: [] },
      ),
    );
    const [a, b] = allAt(xmlTree(build({ order })), 'Fa/FaWiersz');
    expect(a && ['P_8B', 'P_9B', 'P_10', 'P_11A'].map((p) => textAt(a, p))).toEqual(['4', '39.99', '16.00', '143.96']);
    expect(b && ['P_8B', 'P_9B', 'P_10', 'P_11A'].map((p) => textAt(b, p))).toEqual(['3', '7.00', '1.00', '20.00']);
  });

  test('payment forms: cash 1, card 2, transfer 6, mobile 7', () => {
    const base = mapShopplatformOrder(wcOrder(5004, [mug]));
    const forms = (['cash', 'card', 'transfer', 'mobile'] as const).map((paymentMethod) =>
      textAt(xmlTree(build({ order: { ...base, paymentMethod } })), 'Fa/Platnosc/FormaPlatnosci'),
    );
    expect(forms).toEqual(['1', '2', '6', '7']);
  });

  test('names with markup characters and control characters stay well-formed', () => {
    const base = mapShopplatformOrder(wcOrder(5005, [mug]));
    const order = {
      ...base,
      lines: base.lines.map((l) => ({ ...l, name: 'Kubek <Retro> & "Mała\u0007czarna"  ' })),
      buyer: { ...base.buyer, name: 'A & B <Sp. j.>' },
    };
    const t = xmlTree(build({ order }));
    expect(textAt(t, 'Fa/FaWiersz/P_7')).toBe('Kubek <Retro> & "Mała czarna"');
    expect(textAt(t, 'Podmiot2/DaneIdentyfikacyjne/Nazwa')).toBe('A & B <Sp. j.>');
  });

  test('foreign currency: P_14_xW = VAT × rate rounded half away from zero', () => {
    const order = mapShopplatformOrder(wcOrder(5006, [mug], { currency: 'USD', shipping_lines: [] }));
    const t = xmlTree(build({ order, exchangeRate: { rate: '3.712345', date: '2026-06-02', table: '105/A/NBP/2026' } }));
    // VAT 29.91 USD × 3.712345 = 111.036239… PLN
    expect([textAt(t, 'Fa/P_14_1'), textAt(t, 'Fa/P_14_1W'), textAt(t, 'Fa/FaWiersz/KursWaluty')]).toEqual(['29.91', '111.04', '3.712345']);
  });

  test.each([
    ['foreign currency without a rate', (o: NormalizedOrder) => ({ order: { ...o, currency: 'EUR' as const } }), /needs the NBP rate/],
    ['PLN with a rate', (o: NormalizedOrder) => ({ order: o, exchangeRate: { rate: '4.2', date: '2026-06-01', table: '1/A/NBP/2026' } }), /no exchange rate/],
    [
      'a rate with 8 decimals',
      (o: NormalizedOrder) => ({ order: { ...o, currency: 'EUR' as const }, exchangeRate: { rate: '0.00020367', date: '2026-06-01', table: '1/A/NBP/2026' } }),
      /at most 6 decimals/,
    ],
    ['a seller NIP with a typo', (o: NormalizedOrder) => ({ order: o, seller: { ...SELLER, nip: '5265877636' } }), /seller NIP/],
    ['an impossible issue date', (o: NormalizedOrder) => ({ order: o, issueDate: '2026-02-30' }), /issue date/],
    [
      'a line whose value does not match its price',
      (o: NormalizedOrder) => ({ order: { ...o, lines: o.lines.map((l) => ({ ...l, grossGrosze: l.grossGrosze + l.quantity })) } }),
      /unit price ≠/,
    ],
  ])('%s → invoice_build_failed', (_, edit, message) => {
    const order = mapShopplatformOrder(wcOrder(5007, [mug]));
    const input = { seller: SELLER, number: 'FV/1', issueDate: '2026-06-03', systemInfo: 'x', ...edit(order) };
    const error = buildError(() => buildInvoiceXml(input));
    expect(error).toMatch(/^invoice_build_failed: /);
    expect(error).toMatch(message);
  });
});

describe('checkSums', () => {
  const bucket = { rate: 23 as const, grossGrosze: 12_300, vatGrosze: 2_300, netGrosze: 10_000 };
  test('accepts rows, buckets and P_15 that agree', () => {
    expect(() =>
      checkSums(
        [
          { grossGrosze: 12_000, rate: 23 },
          { grossGrosze: 300, rate: 23 },
        ],
        [bucket],
        12_300,
      ),
    ).not.toThrow();
  });
  test.each([
    [
      'a row moved to another rate',
      [
        { grossGrosze: 12_000, rate: 23 as const },
        { grossGrosze: 300, rate: 8 as const },
      ],
      [bucket],
      12_300,
      /rows at 23 %/,
    ],
    ['net + VAT not gross', [{ grossGrosze: 12_300, rate: 23 as const }], [{ ...bucket, vatGrosze: 2_301 }], 12_301, /net 100.00 \+ VAT 23.01/],
    ['P_15 off by a grosz', [{ grossGrosze: 12_300, rate: 23 as const }], [bucket], 12_301, /P_15 is 123.01/],
  ])('%s → invoice_build_failed', (_, rows, buckets, total, message) => {
    expect(buildError(() => checkSums(rows, buckets, total))).toMatch(message);
  });
});

describe('issue 13: facts that change the document', () => {
  const base = () => mapShopplatformOrder(wcOrder(5100, [{ id: 1, name: 'Serwer', quantity: 1, grossGrosze: 1_500_000, rate: 23 }], { shipping_lines: [] }));
  const withLines = (o: NormalizedOrder, grossGrosze: number, annex15: boolean): NormalizedOrder => ({
    ...o,
    lines: o.lines.map((l) => ({ ...l, unitPriceGrosze: grossGrosze, grossGrosze, annex15 })),
  });
  const at = (xml: string, ...paths: string[]) => paths.map((p) => textAt(xmlTree(xml), p));

  test.each([
    ['annex 15, exactly 15,000.00 PLN: not above the threshold', 'PLN', 1_500_000, true, undefined, '2'],
    ['annex 15, 15,000.01 PLN', 'PLN', 1_500_001, true, undefined, '1'],
    ['no annex-15 line, 20,000.00 PLN', 'PLN', 2_000_000, false, undefined, '2'],
    ['annex 15, 3,600.00 EUR × 4.2 = 15,120.00 PLN', 'EUR', 360_000, true, { rate: '4.2', date: '2026-06-01', table: '1/A/NBP/2026' }, '1'],
    ['annex 15, 3,500.00 EUR × 4.2 = 14,700.00 PLN', 'EUR', 350_000, true, { rate: '4.2', date: '2026-06-01', table: '1/A/NBP/2026' }, '2'],
  ] as const)('P_18A (art. 106e ust. 1 pkt 18a): %s → %s', (_, currency, gross, annex15, exchangeRate, p18a) => {
    const order = { ...withLines(base(), gross, annex15), currency };
    const xml = build({ order, exchangeRate });
    expect(at(xml, 'Fa/Adnotacje/P_18A', 'Fa/FaWiersz/P_12_Zal_15')).toEqual([p18a, annex15 ? '1' : null]);
  });

  test.each([
    ['the default seller', SELLER, '2'],
    ['a seller on the cash method', { ...SELLER, cashAccounting: true }, '1'],
  ])('P_16 (metoda kasowa): %s → %s', (_, seller, p16) => {
    expect(at(build({ order: base(), seller }), 'Fa/Adnotacje/P_16')).toEqual([p16]);
  });

  const recipient = { nip: '3861610227', name: 'Szkoła Podstawowa nr 1', address1: 'ul. Szkolna 1', address2: '00-003 Warszawa' };
  test.each([
    ['an ordinary company', { jst: false, vatGroup: false, recipient: null }, ['2', '2', null, null]],
    ['a JST unit', { jst: true, vatGroup: false, recipient }, ['1', '2', '3861610227', '8']],
    ['a VAT-group member', { jst: false, vatGroup: true, recipient }, ['2', '1', '3861610227', '10']],
  ])('JST/GV and Podmiot3: %s', (_, flags, expected) => {
    const order = { ...base(), buyer: { ...base().buyer, ...flags } };
    expect(at(build({ order }), 'Podmiot2/JST', 'Podmiot2/GV', 'Podmiot3/DaneIdentyfikacyjne/NIP', 'Podmiot3/Rola')).toEqual(expected);
  });

  test('a JST buyer without the unit cannot be built', () => {
    const order = { ...base(), buyer: { ...base().buyer, jst: true } };
    expect(buildError(() => buildInvoiceXml({ seller: SELLER, order, number: 'FV/1', issueDate: '2026-06-03', systemInfo: 'x' }))).toMatch(
      /^invoice_build_failed: .*unit it concerns/,
    );
  });

  test.each([
    ['no delivery date, paid the day before', null, '2026-06-03', '2026-06-01'],
    ['delivered on a later day than paid', '2026-06-02', '2026-06-03', '2026-06-02'],
    ['delivered on the issue day', '2026-06-03', '2026-06-03', null],
  ])('P_6: %s', (_, deliveredAt, issueDate, p6) => {
    const order = { ...base(), paidAt: '2026-06-01T10:00:00.000Z', deliveredAt };
    expect(at(build({ order, issueDate }), 'Fa/P_6', 'Fa/Platnosc/DataZaplaty')).toEqual([p6, '2026-06-01']);
  });

  test('UU_ID: the shop row id when it fits, else <document id>-<row>; shipping rows say they are shipping', () => {
    const order: NormalizedOrder = {
      ...base(),
      lines: base().lines.map((l) => ({ ...l, ref: null })),
      shipping: [
        { ref: null, name: 'Kurier DPD', grossGrosze: 1_500, vatRate: 23 },
        { ref: 'WC-1-9', name: 'Dostawa - Paczkomat', grossGrosze: 900, vatRate: 23 },
      ],
    };
    const rows = allAt(xmlTree(build({ order, documentId: `inv_${'x'.repeat(60)}` })), 'Fa/FaWiersz');
    expect(rows.map((r) => [textAt(r, 'UU_ID'), textAt(r, 'P_7')])).toEqual([
      [`inv_${'x'.repeat(44)}-1`, 'Serwer'],
      [`inv_${'x'.repeat(44)}-2`, 'Dostawa - Kurier DPD'],
      ['WC-1-9', 'Dostawa - Paczkomat'],
    ]);
    expect(rows.every((r) => (textAt(r, 'UU_ID') ?? '').length <= 50)).toBe(true);
  });

  test('KSeF-forbidden characters are removed from every text field', () => {
    const dirty = (s: string) => `${s}\u0085\u007F\u009F\uFDD0\u{1FFFE}\u{10FFFF}x`;
    const o = base();
    const order: NormalizedOrder = {
      ...o,
      number: dirty('4817'),
      buyer: { ...o.buyer, name: dirty('Kupiec'), address1: dirty('ul. Długa 5'), address2: dirty('00-002 Warszawa'), customerNumber: dirty('57') },
      lines: o.lines.map((l) => ({ ...l, name: dirty('Serwer'), sku: dirty('S') })),
    };
    const xml = build({ order, seller: { ...SELLER, name: dirty('Sprzedawca'), address1: dirty('ul. Prosta 1') }, issuePlace: dirty('Warszawa') });
    expect(xml).not.toMatch(/[\u007F-\u009F\uFDD0-\uFDEF]|[\u{1FFFE}\u{10FFFF}]/u);
    expect(at(xml, 'Podmiot2/DaneIdentyfikacyjne/Nazwa', 'Fa/FaWiersz/P_7', 'Fa/WarunkiTransakcji/Zamowienia/NrZamowienia')).toEqual([
      'Kupiec x',
      'Serwer x',
      '4817 x',
    ]);
  });
});

describe('a line value that does not divide by its quantity (issue 34)', () => {
  const order = () => mapShopplatformOrder(wcOrder(5005, [{ id: 22, name: 'Kapsułki', quantity: 7, grossGrosze: 8_601, rate: 23 }]));

  test('P_9B is the exact unit price to 8 decimals (TKwotowy2), with no P_10: nobody granted a discount', () => {
    const [row] = allAt(xmlTree(build({ order: order() })), 'Fa/FaWiersz');
    expect(['P_8B', 'P_9B', 'P_10', 'P_11A'].map((p) => textAt(row!, p))).toEqual(['7', '12.28714286', null, '86.01']);
  });

  test('a coupon on such a line stays the only discount', () => {
    const o = mapShopplatformOrder(wcOrder(5006, [{ id: 23, name: 'Kapsułki', quantity: 7, grossGrosze: 8_000, beforeCouponGrosze: 8_601, rate: 23 }]));
    const [row] = allAt(xmlTree(build({ order: o })), 'Fa/FaWiersz');
    expect(['P_8B', 'P_9B', 'P_10', 'P_11A'].map((p) => textAt(row!, p))).toEqual(['7', '12.28714286', '6.01', '80.00']);
  });
});
