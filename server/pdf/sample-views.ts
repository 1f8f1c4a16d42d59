import { kodIUrl } from '../ksef/qr';
import type { TDocumentView, TPartyView, TRowView } from './view-model';

/**
 * View models of the worked examples in shared/domain (order 4817, EUR order 4830, refund 4822),
 * for tests and bench/pdf.ts. The QR link hashes the given XML; tests pass the fixture's bytes.
 */

const SELLER: TPartyView = {
  name: 'Kawowy Świat Sp. z o.o.',
  nip: '5265877635',
  addressLines: ['ul. Marszałkowska 100/5', '00-026 Warszawa'],
  email: 'faktury@kawowyswiat.example.pl',
  phone: '+48 22 123 45 67',
};

const BUYER: TPartyView = {
  name: 'Biuro Projektowe Kreska Sp. z o.o.',
  nip: '3861610227',
  addressLines: ['ul. Piotrkowska 120 lok. 4', '90-006 Łódź'],
  email: 'zakupy@kreska.example.pl',
};

const qrUrl = (issueDate: string, xml: string | Buffer) =>
  kodIUrl({ environment: 'test', sellerNip: SELLER.nip, issueDate, xml });

export function invoice4817View(xml: string | Buffer = 'FV/2026/06/0042'): TDocumentView {
  return {
    kind: 'invoice',
    number: 'FV/2026/06/0042',
    ksefNumber: '5265877635-20260602-01000016B2C4-ED',
    issueDate: '2026-06-02',
    issuePlace: 'Warszawa',
    taxPointDate: '2026-06-01',
    currency: 'PLN',
    seller: SELLER,
    buyer: BUYER,
    rows: [
      { name: 'Ekspres ciśnieniowy Barista Pro 15 bar', sku: 'EXP-BP15', quantity: '1', unit: 'szt.', unitGrossGrosze: 129_900, discountGrosze: 0, vatRate: 23, grossGrosze: 129_900 },
      { name: 'Dzbanek do spieniania mleka 600 ml', sku: 'DZB-600', quantity: '3', unit: 'szt.', unitGrossGrosze: 5_999, discountGrosze: 0, vatRate: 23, grossGrosze: 17_997 },
      { name: 'Kawa ziarnista Arabica Brazylia 1 kg', sku: 'KAW-ARB-1KG', quantity: '2', unit: 'szt.', unitGrossGrosze: 8_990, discountGrosze: 0, vatRate: 8, grossGrosze: 17_980 },
      { name: 'Dostawa - Kurier DPD', quantity: '1', unit: 'usł.', unitGrossGrosze: 2_000, discountGrosze: 0, vatRate: 23, grossGrosze: 2_000 },
    ],
    vatSummary: [
      { rate: 23, netGrosze: 121_867, vatGrosze: 28_030, grossGrosze: 149_897 },
      { rate: 8, netGrosze: 16_648, vatGrosze: 1_332, grossGrosze: 17_980 },
    ],
    payment: { form: 'Przelew', paid: true, date: '2026-06-01' },
    totals: { netGrosze: 138_515, vatGrosze: 29_362, grossGrosze: 167_877 },
    qr: { url: qrUrl('2026-06-02', xml) },
  };
}

export function invoice4830EurView(xml: string | Buffer = 'FV/2026/06/0017'): TDocumentView {
  return {
    kind: 'invoice',
    number: 'FV/2026/06/0017',
    ksefNumber: '5265877635-20260601-01000019E3A0-CA',
    issueDate: '2026-06-01',
    currency: 'EUR',
    seller: SELLER,
    buyer: { ...BUYER, name: 'Kaffeehaus Berlin GmbH Zweigniederlassung in Polen', nip: '1234563218' },
    rows: [
      { name: 'Młynek żarnowy GrindMaster 64', sku: 'MLN-GM64', quantity: '2', unit: 'szt.', unitGrossGrosze: 24_900, discountGrosze: 0, vatRate: 23, grossGrosze: 49_800 },
      { name: 'Kawa ziarnista Arabica Brazylia 1 kg', sku: 'KAW-ARB-1KG', quantity: '5', unit: 'szt.', unitGrossGrosze: 2_150, discountGrosze: 0, vatRate: 8, grossGrosze: 10_750 },
      { name: 'Dostawa - Kurier DPD', quantity: '1', unit: 'usł.', unitGrossGrosze: 1_500, discountGrosze: 0, vatRate: 23, grossGrosze: 1_500 },
    ],
    vatSummary: [
      { rate: 23, netGrosze: 41_707, vatGrosze: 9_593, grossGrosze: 51_300, vatPlnGrosze: 40_599 },
      { rate: 8, netGrosze: 9_954, vatGrosze: 796, grossGrosze: 10_750, vatPlnGrosze: 3_369 },
    ],
    exchangeRate: { rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' },
    payment: { form: 'Karta', paid: true, date: '2026-06-01' },
    totals: { netGrosze: 51_661, vatGrosze: 10_389, grossGrosze: 62_050 },
    qr: { url: qrUrl('2026-06-01', xml) },
  };
}

export function correction4822View(xml: string | Buffer = 'KOR/2026/06/0003'): TDocumentView {
  return {
    kind: 'correction',
    number: 'KOR/2026/06/0003',
    ksefNumber: '5265877635-20260609-0100002A41F7-87',
    issueDate: '2026-06-09',
    currency: 'PLN',
    seller: SELLER,
    buyer: BUYER,
    rows: [
      { name: 'Dzbanek do spieniania mleka 600 ml', sku: 'DZB-600', quantity: '-1', unit: 'szt.', unitGrossGrosze: 5_999, discountGrosze: 0, vatRate: 23, grossGrosze: -5_999 },
      { name: 'Dostawa - Kurier DPD', quantity: '-1', unit: 'usł.', unitGrossGrosze: 2_000, discountGrosze: 0, vatRate: 23, grossGrosze: -2_000 },
    ],
    vatSummary: [{ rate: 23, netGrosze: -6_503, vatGrosze: -1_496, grossGrosze: -7_999 }],
    correction: {
      originalNumber: 'FV/2026/06/0042',
      originalIssueDate: '2026-06-02',
      originalKsefNumber: '5265877635-20260602-01000016B2C4-ED',
      reason: 'Zwrot towaru: 1 szt. dzbanka (uszkodzony w transporcie) oraz zwrot kosztów dostawy',
    },
    totals: { netGrosze: -6_503, vatGrosze: -1_496, grossGrosze: -7_999 },
    qr: { url: qrUrl('2026-06-09', xml) },
  };
}

const PRODUCTS = [
  'Kawa ziarnista Arabica Brazylia 1 kg',
  'Filtry papierowe do dripa V60 rozmiar 02, 100 szt.',
  'Młynek żarnowy GrindMaster 64 z regulacją stopnia mielenia, wersja z wagą i timerem',
  'Dzbanek',
  'Odkamieniacz',
];

/** An invoice with `count` rows of varied name lengths, rates and discounts, totals consistent. */
export function manyRowsView(count: number): TDocumentView {
  const rates = [23, 8, 5, 0] as const;
  const rows: TRowView[] = Array.from({ length: count }, (_, i) => {
    const unit = 1_000 + ((i * 7_919) % 90_000);
    const quantity = 1 + (i % 4);
    const discount = i % 5 === 0 ? 500 : 0;
    return {
      name: `${PRODUCTS[i % PRODUCTS.length]} nr ${i + 1}`,
      sku: i % 3 === 0 ? undefined : `SKU-${String(i + 1).padStart(5, '0')}`,
      quantity: String(quantity),
      unit: 'szt.',
      unitGrossGrosze: unit,
      discountGrosze: discount,
      vatRate: rates[i % rates.length] ?? 23,
      grossGrosze: unit * quantity - discount,
    };
  });
  const vatSummary = rates
    .map((rate) => {
      const gross = rows.filter((r) => r.vatRate === rate).reduce((sum, r) => sum + r.grossGrosze, 0);
      const vat = Math.floor((2 * gross * rate + 100 + rate) / (2 * (100 + rate)));
      return { rate, netGrosze: gross - vat, vatGrosze: vat, grossGrosze: gross };
    })
    .filter((b) => b.grossGrosze !== 0);
  const sum = (k: 'netGrosze' | 'vatGrosze' | 'grossGrosze') => vatSummary.reduce((t, b) => t + b[k], 0);
  return {
    ...invoice4817View(),
    number: `FV/2026/06/${String(count).padStart(4, '0')}`,
    rows,
    vatSummary,
    totals: { netGrosze: sum('netGrosze'), vatGrosze: sum('vatGrosze'), grossGrosze: sum('grossGrosze') },
  };
}
