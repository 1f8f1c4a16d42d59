import { describe, expect, test } from 'vitest';
import { kodIUrl } from '@/server/ksef/qr';
import { fixtureXml, sampleInvoiceXml } from '@/test/fixtures/pdf-sample-views';
import { buildDocumentView } from './document-view';
import { readIssuedFacts, readSellerName } from './issued-facts';
import { ZDocumentView } from './view-model';

const KSEF = '5265877635-20260602-01000016B2C4-ED';
const doc = (fa3Xml: string) => ({
  id: 'inv_test',
  number: 'FV/2026/06/0042',
  issueDate: '2026-06-02',
  fa3Xml,
  ksefNumber: KSEF,
  ksefEnvironment: 'test' as const,
});

describe('buildDocumentView: the stored XML, KSeF number and KOD I', () => {
  test('invoice 4817 (PLN): every printed field from the XML', () => {
    const xml = fixtureXml.invoice4817();
    const view = buildDocumentView({ doc: doc(xml) });
    expect(ZDocumentView.safeParse(view).success).toBe(true);
    expect(view).toMatchObject({
      type: 'VAT',
      number: 'FV/2026/06/0042',
      ksefNumber: KSEF,
      issueDate: '2026-06-02',
      issuePlace: 'Warszawa',
      deliveryDate: '2026-06-01',
      currency: 'PLN',
      totalGrosze: 167_877,
      systemInfo: 'woo-ksef',
      seller: {
        nip: '5265877635',
        name: 'Kawowy Świat Sp. z o.o.',
        addressLines: ['ul. Marszałkowska 100/5', '00-026 Warszawa'],
        countryCode: 'PL',
        email: 'faktury@kawowyswiat.example.pl',
        phone: '+48 22 123 45 67',
      },
      buyer: { nip: '3861610227', name: 'Biuro Projektowe Kreska Sp. z o.o.', countryCode: 'PL', customerNumber: '57' },
      payment: { paid: true, date: '2026-06-01', form: 'Przelew' },
      orders: [{ number: '4817', date: '2026-06-01' }],
      annotations: { cashAccounting: false, selfBilling: false, reverseCharge: false, splitPayment: false },
      otherParties: [],
      notes: [],
      qr: { url: kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate: '2026-06-02', xml }) },
    });
    expect([view.buyer.jst, view.buyer.gv, view.seller.jst]).toEqual([false, false, undefined]);
    expect(view.exchangeRate).toBeUndefined();
    expect(view.lateSince).toBeUndefined();
    expect(view.rows[1]).toEqual({
      lp: '2',
      uuId: 'WC-4817-1002',
      name: 'Dzbanek do spieniania mleka 600 ml',
      sku: 'DZB-600',
      quantity: '3',
      unit: 'szt.',
      unitGross: '59.99',
      rate: '23',
      grossGrosze: 17_997,
    });
    expect(view.vatSummary).toEqual([
      { field: '1', netGrosze: 121_867, vatGrosze: 28_030 },
      { field: '2', netGrosze: 16_648, vatGrosze: 1_332 },
    ]);
  });

  test('correction 4822: TypKorekty, reason and the corrected invoice from DaneFaKorygowanej', () => {
    const view = buildDocumentView({ doc: { ...doc(fixtureXml.correction4822()), number: 'KOR/2026/06/0003', issueDate: '2026-06-09' } });
    expect(view.type).toBe('KOR');
    expect(view.correction).toEqual({
      reason: 'Zwrot towaru: 1 szt. dzbanka (uszkodzony w transporcie) oraz zwrot kosztów dostawy',
      type: 2,
      invoices: [{ number: 'FV/2026/06/0042', issueDate: '2026-06-02', ksefNumber: KSEF }],
    });
    expect(view.rows.map((r) => [r.quantity, r.grossGrosze])).toEqual([
      ['-1', -5_999],
      ['-1', -2_000],
    ]);
    expect(view.totalGrosze).toBe(-7_999);
    expect(view.payment).toBeUndefined();
  });

  test('EUR invoice 4830: the common KursWaluty, VAT in PLN per field and the rate note', () => {
    const view = buildDocumentView({ doc: doc(fixtureXml.invoice4830Eur()) });
    expect(view.exchangeRate).toBe('4.2322');
    expect(view.vatSummary).toEqual([
      { field: '1', netGrosze: 41_707, vatGrosze: 9_593, vatPlnGrosze: 40_599 },
      { field: '2', netGrosze: 9_954, vatGrosze: 796, vatPlnGrosze: 3_369 },
    ]);
    expect(view.notes).toEqual([{ key: 'Kurs waluty', value: '1 EUR = 4.2322 PLN, średni kurs NBP, tabela A nr 103/A/NBP/2026 z dnia 2026-05-29' }]);
    expect(view.payment?.form).toBe('Karta');
  });

  test('KOD II is carried for an offline document; KSeF number null until accepted', () => {
    const url = 'https://qr-test.ksef.mf.gov.pl/certificate/Nip/5265877635/5265877635/01F2/abc/def';
    const view = buildDocumentView({ doc: { ...doc(fixtureXml.invoice4817()), ksefNumber: null }, certificateQrUrl: url });
    expect(view.ksefNumber).toBeNull();
    expect(view.certificateQr).toEqual({ url });
  });

  test('the builder’s own XML: rows, discounts as P_10, 0 KR and totals as written', () => {
    const xml = sampleInvoiceXml(10);
    const view = buildDocumentView({ doc: doc(xml) });
    expect(view.rows).toHaveLength(11);
    expect(view.rows.find((r) => r.discount)).toMatchObject({ discount: '5.00', quantity: '3' });
    expect(view.rows.map((r) => r.rate)).toContain('0 KR');
    expect(view.vatSummary.map((b) => b.field)).toEqual(['1', '2', '3', '6_1']);
    expect(view.vatSummary.reduce((s, b) => s + b.netGrosze + b.vatGrosze, 0)).toBe(view.totalGrosze);
    expect(view.rows.reduce((s, r) => s + r.grossGrosze, 0)).toBe(view.totalGrosze);
  });

  test('refuses a document that is not numbered', () => {
    expect(() => buildDocumentView({ doc: { ...doc(fixtureXml.invoice4817()), number: null } })).toThrow(/no number/);
  });
});

describe('readIssuedFacts: what the XML may gain', () => {
  const base = fixtureXml.invoice4817();

  test('P_16, P_18A, P_12_Zal_15, JST, GV and Podmiot3', () => {
    const xml = base
      .replace('<P_16>2</P_16>', '<P_16>1</P_16>')
      .replace('<P_18A>2</P_18A>', '<P_18A>1</P_18A>')
      .replace('<P_12>23</P_12>', '<P_12>23</P_12><P_12_Zal_15>1</P_12_Zal_15>')
      .replace('<JST>2</JST>', '<JST>1</JST>')
      .replace('<GV>2</GV>', '<GV>1</GV>')
      .replace(
        '</Podmiot2>',
        '</Podmiot2><Podmiot3><DaneIdentyfikacyjne><NIP>1234563218</NIP><Nazwa>Członek grupy</Nazwa></DaneIdentyfikacyjne><Rola>10</Rola></Podmiot3>',
      );
    const facts = readIssuedFacts(xml);
    expect(facts.annotations).toEqual({ cashAccounting: true, selfBilling: false, reverseCharge: false, splitPayment: true });
    expect(facts.rows.map((r) => r.annex15 ?? false)).toEqual([true, false, false, false]);
    expect(facts.buyer).toMatchObject({ jst: true, gv: true });
    expect(facts.otherParties).toEqual([{ nip: '1234563218', name: 'Członek grupy', addressLines: [], role: 10 }]);
  });

  test('decodes escaped text', () => {
    const xml = base.replace('<Nazwa>Kawowy Świat Sp. z o.o.</Nazwa>', '<Nazwa>Kawa &amp; Herbata &lt;Sp. j.&gt;</Nazwa>');
    expect(readIssuedFacts(xml).seller.name).toBe('Kawa & Herbata <Sp. j.>');
    expect(readSellerName(xml)).toBe('Kawa & Herbata <Sp. j.>');
    expect(() => readSellerName(xml.replace(/<Podmiot1>[\s\S]*<\/Podmiot1>/, ''))).toThrow(/Podmiot1/);
  });

  test('a late invoice: issued after the 15th of the month after delivery or payment (art. 106i ust. 1–2)', () => {
    expect(readIssuedFacts(base.replace('<P_1>2026-06-02</P_1>', '<P_1>2026-07-16</P_1>')).lateSince).toBe('2026-07-15');
    expect(readIssuedFacts(base.replace('<P_1>2026-06-02</P_1>', '<P_1>2026-07-15</P_1>')).lateSince).toBeUndefined();
  });
});
