import { describe, expect, test } from 'vitest';
import { AppError } from '@/server/errors';
import type { NormalizedRefund } from '@/server/orders/types';
import { mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import { mapShopplatformRefund } from '@/server/orders/woocommerce/map-refund';
import { fixtureOrder4817, fixtureRefund4822, readFixture, wcOrder, wcOrder4830Eur } from '@/test/fixtures/wc-payloads';
import { validateXml } from '@/server/ksef/xsd';
import { buildCorrectionXml, type CorrectionInput } from './build-correction';
import type { Seller } from './parts';
import { allAt, textAt, xmlTree } from './xml-tree';

const SELLER: Seller = {
  nip: '5265877635',
  name: 'Kawowy Świat Sp. z o.o.',
  address1: 'ul. Marszałkowska 100/5',
  address2: '00-026 Warszawa',
  email: 'faktury@kawowyswiat.example.pl',
  phone: '+48 22 123 45 67',
};
const KSEF_NUMBER = '5265877635-20260602-01000016B2C4-ED';

const PLAIN = { cashAccounting: false, splitPayment: false };
const original4817 = () => ({
  order: mapShopplatformOrder(fixtureOrder4817()),
  number: 'FV/2026/06/0042',
  issueDate: '2026-06-02',
  ksefNumber: KSEF_NUMBER,
  annotations: PLAIN,
});

function build(input: Partial<CorrectionInput> & { refund: NormalizedRefund }): string {
  const xml = buildCorrectionXml({
    seller: SELLER,
    original: original4817(),
    number: 'KOR/2026/06/0001',
    issueDate: '2026-06-09',
    systemInfo: 'ksef-relay test',
    ...input,
  });
  expect(validateXml(xml, 'fa3')).toEqual({ ok: true });
  return xml;
}

const refundOf = (over: Partial<NormalizedRefund>): NormalizedRefund => ({
  externalId: 'r',
  reason: null,
  createdAt: null,
  lines: [],
  shippingGrosze: null,
  shippingRef: null,
  ...over,
});
const jugs = (quantity: number): NormalizedRefund['lines'] => [
  { ref: null, invoiceLineRef: 'WC-4817-1002', name: 'Dzbanek', sku: 'DZB-600', quantity, unitPriceGrosze: 5_999, vatRate: 23 },
];

describe('buildCorrectionXml', () => {
  test('refund 4822 through the WooCommerce mapping equals fa3-kor-pln-refund-4822.xml', () => {
    const refund = mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822());
    const xml = build({ refund, number: 'KOR/2026/06/0003', issueDate: '2026-06-09', issuePlace: 'Warszawa', systemInfo: 'woo-ksef' });
    // the fixture's reason text is edited by hand ("Zwrot towaru: …") and differs from the refund's `reason`
    // DodatkowyOpis: this service adds the link of each KOR row to its invoice row (asserted below)
    const drop = ['DataWytworzeniaFa', 'PrzyczynaKorekty', 'DodatkowyOpis'];
    expect(xmlTree(xml, drop)).toEqual(xmlTree(readFixture('fa3-kor-pln-refund-4822.xml'), drop));
    expect(textAt(xmlTree(xml), 'Fa/PrzyczynaKorekty')).toBe(refund.reason);
    expect(allAt(xmlTree(xml), 'Fa/DodatkowyOpis').map((d) => [textAt(d, 'NrWiersza'), textAt(d, 'Klucz'), textAt(d, 'Wartosc')])).toEqual([
      ['1', 'Pozycja faktury korygowanej', 'FV/2026/06/0042 poz. 2, UU_ID WC-4817-1002'],
      ['2', 'Pozycja faktury korygowanej', 'FV/2026/06/0042 poz. 4, UU_ID WC-4817-1004'],
    ]);
  });

  test('a reason is always given, and it fits the case: a return or a price reduction (art. 29a ust. 10 pkt 1, 3)', () => {
    const reason = (refund: NormalizedRefund) => textAt(xmlTree(build({ refund })), 'Fa/PrzyczynaKorekty');
    const cheaperJugs = [{ ...jugs(3)[0]!, unitPriceGrosze: 1_000 }];
    expect(reason(refundOf({ lines: jugs(1) }))).toBe('Zwrot towaru');
    expect(reason(refundOf({ shippingGrosze: 2_000 }))).toBe('Zwrot kosztów dostawy');
    expect(reason(refundOf({ lines: jugs(1), shippingGrosze: 2_000 }))).toBe('Zwrot towaru i kosztów dostawy');
    expect(reason(refundOf({ lines: cheaperJugs }))).toBe('Obniżka ceny towaru');
    expect(reason(refundOf({ shippingGrosze: 500 }))).toBe('Obniżka kosztów dostawy');
    expect(
      reason(refundOf({ lines: [...jugs(1), { ...cheaperJugs[0]!, name: 'Ekspres', invoiceLineRef: 'WC-4817-1001', quantity: 1 }], shippingGrosze: 500 })),
    ).toBe('Zwrot towaru; obniżka ceny towaru i kosztów dostawy');
  });

  test('a second correction takes the buckets after the first one', () => {
    const first = refundOf({ externalId: 'r1', lines: jugs(1) });
    const t = xmlTree(build({ refund: refundOf({ externalId: 'r2', lines: jugs(2) }), earlierRefunds: [first] }));
    // 23 %: 1438.98 → 1319.00 gross; VAT 269.0810 → 269.08, 246.6423 → 246.64
    expect(['Fa/P_13_1', 'Fa/P_14_1', 'Fa/P_15'].map((p) => textAt(t, p))).toEqual(['-97.54', '-22.44', '-119.98']);
    expect(allAt(t, 'Fa/FaWiersz').map((r) => [textAt(r, 'P_8B'), textAt(r, 'P_9B'), textAt(r, 'P_11A')])).toEqual([['-2', '59.99', '-119.98']]);
  });

  test('a partly refunded shipping is a before/after pair: same price, the reduction in P_10, StanPrzed on the before row', () => {
    const t = xmlTree(build({ refund: refundOf({ shippingGrosze: 500 }) }));
    const rows = allAt(t, 'Fa/FaWiersz').map((r) => ['NrWierszaFa', 'P_7', 'P_8B', 'P_9B', 'P_10', 'P_11A', 'StanPrzed'].map((p) => textAt(r, p)));
    expect(rows).toEqual([
      ['1', 'Dostawa - Kurier DPD', '1', '20.00', null, '20.00', '1'],
      ['2', 'Dostawa - Kurier DPD', '1', '20.00', '5.00', '15.00', null],
    ]);
    expect(['P_13_1', 'P_14_1', 'P_15'].map((p) => textAt(t, `Fa/${p}`))).toEqual(['-4.06', '-0.94', '-5.00']);
  });

  test('a EUR correction reuses the original rate; P_14_xW is the PLN difference of the cumulative VAT', () => {
    const exchangeRate = { rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' };
    const original = {
      order: mapShopplatformOrder(wcOrder4830Eur()),
      number: 'FV/2026/06/0017',
      issueDate: '2026-06-01',
      ksefNumber: '5265877635-20260601-0100000A1B2C-7F',
      exchangeRate,
      annotations: PLAIN,
    };
    const refund = refundOf({
      lines: [{ ref: null, invoiceLineRef: 'WC-4830-2001', name: 'Młynek', sku: null, quantity: 1, unitPriceGrosze: 24_900, vatRate: 23 }],
    });
    const t = xmlTree(build({ original, refund }));
    // 23 %: 513.00 → 264.00 EUR; VAT 95.93 → 49.37; PLN 405.99 → 208.94
    expect(['KodWaluty', 'P_13_1', 'P_14_1', 'P_14_1W', 'P_15'].map((p) => textAt(t, `Fa/${p}`))).toEqual(['EUR', '-202.44', '-46.56', '-197.05', '-249.00']);
    expect(textAt(t, 'Fa/FaWiersz/KursWaluty')).toBe('4.2322');
    expect(textAt(t, 'Fa/DodatkowyOpis/Wartosc')).toMatch(/103\/A\/NBP\/2026 z dnia 2026-05-29/);
  });

  test.each([
    ['more jugs than were invoiced', { refund: refundOf({ lines: jugs(4) }) }, /more than remains invoiced/],
    ['an amount-only refund', { refund: refundOf({}) }, /amount-only/],
    ['a malformed KSeF number', { refund: refundOf({ lines: jugs(1) }), original: { ...original4817(), ksefNumber: '5265877635-2026' } }, /not a KSeF number/],
    ['a correction dated before the invoice', { refund: refundOf({ lines: jugs(1) }), issueDate: '2026-06-01' }, /before the invoice date/],
  ] as const)('%s → invoice_build_failed', (_, input, message) => {
    let error: unknown;
    try {
      buildCorrectionXml({ seller: SELLER, original: original4817(), number: 'KOR/1', issueDate: '2026-06-09', systemInfo: 'x', ...input });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('invoice_build_failed');
    expect((error as AppError).message).toMatch(message);
  });
});

describe('issue 13: the KOR keeps the invoice facts and names the invoice rows', () => {
  test('Adnotacje as on the invoice (P_16, P_18A), not the current settings; rows keep P_12_Zal_15; derived UU_IDs link KOR rows to invoice rows', () => {
    const order = mapShopplatformOrder(fixtureOrder4817());
    const big = {
      ...order,
      lines: order.lines.map((l, i) =>
        i === 0 ? { ...l, ref: null, unitPriceGrosze: 1_600_000, grossGrosze: 1_600_000, annex15: true } : { ...l, ref: null },
      ),
    };
    // issued under the cash method with split payment; the seller has left the cash method since (issue 34)
    const original = { ...original4817(), order: big, documentId: 'inv_A', annotations: { cashAccounting: true, splitPayment: true } };
    const refund = refundOf({
      lines: [{ ref: null, invoiceLineRef: null, name: big.lines[0]!.name, sku: big.lines[0]!.sku, quantity: 1, unitPriceGrosze: 1_600_000, vatRate: 23 }],
    });
    const t = xmlTree(build({ original, refund, documentId: 'cor_B', seller: { ...SELLER, cashAccounting: false } }));
    expect(
      ['Fa/Adnotacje/P_16', 'Fa/Adnotacje/P_18A', 'Fa/FaWiersz/P_12_Zal_15', 'Fa/FaWiersz/UU_ID', 'Fa/DodatkowyOpis/Wartosc'].map((p) => textAt(t, p)),
    ).toEqual(['1', '1', '1', 'cor_B-1', 'FV/2026/06/0042 poz. 1, UU_ID inv_A-1']);
  });

  test('a discounted line returned item by item: P_9B is what each item cost after the discount, no negative P_10, never more than invoiced', () => {
    const order = mapShopplatformOrder(fixtureOrder4817());
    // 3 jugs at 59.99 with a 10.00 discount on the line: 169.97
    const discounted = { ...order, lines: order.lines.map((l) => (l.ref === 'WC-4817-1002' ? { ...l, discountGrosze: 1_000, grossGrosze: 16_997 } : l)) };
    const jug = (unitPriceGrosze: number) =>
      refundOf({ lines: [{ ref: null, invoiceLineRef: 'WC-4817-1002', name: 'Dzbanek', sku: null, quantity: 1, unitPriceGrosze, vatRate: 23 }] });
    const rows = (earlier: NormalizedRefund[]) =>
      allAt(xmlTree(build({ original: { ...original4817(), order: discounted }, earlierRefunds: earlier, refund: jug(5_666) })), 'Fa/FaWiersz').map((r) =>
        ['P_8B', 'P_9B', 'P_10', 'P_11A'].map((p) => textAt(r, p)),
      );
    expect(rows([])).toEqual([['-1', '56.66', null, '-56.66']]);
    expect(rows([jug(5_666), jug(5_666)])).toEqual([['-1', '56.66', null, '-56.66']]);
  });
});

describe('corrections of a line that does not divide by its quantity (7 items for 86.01)', () => {
  const order = mapShopplatformOrder(wcOrder(5005, [{ id: 22, name: 'Kapsułki', quantity: 7, grossGrosze: 8_601, rate: 23 }]));
  const line = (quantity: number, unitPriceGrosze: number) =>
    refundOf({ lines: [{ ref: null, invoiceLineRef: 'WC-5005-22', name: 'Kapsułki', sku: null, quantity, unitPriceGrosze, vatRate: 23 }] });
  const rows = (refund: NormalizedRefund) =>
    allAt(xmlTree(build({ original: { ...original4817(), order }, refund })), 'Fa/FaWiersz').map((r) =>
      ['P_8B', 'P_9B', 'P_10', 'P_11A', 'StanPrzed'].map((p) => textAt(r, p)),
    );

  test('one returned item is written at its value, 12.29, with no discount', () => {
    expect(rows(line(1, 1_229))).toEqual([['-1', '12.29', null, '-12.29', null]]);
  });

  test('a price reduction keeps the exact unit price on both states; only the real reduction is a discount', () => {
    expect(rows(line(7, 100))).toEqual([
      ['7', '12.28714286', null, '86.01', '1'],
      ['7', '12.28714286', '7.00', '79.01', null],
    ]);
  });
});

describe('returned items with a restocking fee kept (issue 34)', () => {
  const withFee = (quantity: number, feeGrosze: number, unitPriceGrosze = 5_999) =>
    refundOf({ lines: [{ ...jugs(quantity)[0]!, unitPriceGrosze, feeGrosze }] });

  test('a return correction: the jugs come back at their price, the fee is a row of its own, the total is what was paid back', () => {
    const t = xmlTree(build({ refund: withFee(2, 1_000), documentId: 'cor_F' }));
    expect(allAt(t, 'Fa/FaWiersz').map((r) => ['P_7', 'P_8A', 'P_8B', 'P_9B', 'P_10', 'P_11A', 'StanPrzed'].map((p) => textAt(r, p)))).toEqual([
      ['Dzbanek do spieniania mleka 600 ml', 'szt.', '-2', '59.99', null, '-119.98', null],
      ['Opłata za przyjęcie zwrotu: Dzbanek do spieniania mleka 600 ml', 'usł.', '1', '10.00', null, '10.00', null],
    ]);
    expect(['P_15', 'PrzyczynaKorekty'].map((p) => textAt(t, `Fa/${p}`))).toEqual(['-109.98', 'Zwrot towaru; potrącona opłata za przyjęcie zwrotu']);
    // the note links the returned row to the invoice row; the fee corrects no invoice row
    expect(allAt(t, 'Fa/DodatkowyOpis').map((d) => textAt(d, 'NrWiersza'))).toEqual(['1']);
  });

  test('a fee on items not returned at their price is refused: it is not a price reduction', () => {
    expect(() =>
      buildCorrectionXml({
        seller: SELLER,
        original: original4817(),
        number: 'KOR/1',
        issueDate: '2026-06-09',
        systemInfo: 'x',
        refund: withFee(1, 500, 3_000),
      }),
    ).toThrow(/restocking fee goes with returned items/);
  });
});
