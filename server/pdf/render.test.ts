import { beforeAll, describe, expect, test } from 'vitest';
import { kodIUrl } from '@/server/ksef/qr';
import { decodeQr, decodeQrZbar, pdfText, pdfWords, type PageBox } from '@/test/pdf-tools';
import { KSEF_4817, correction4822View, fixtureXml, invoice4817View, invoice4830EurView, sampleInvoiceXml, viewOfXml } from '@/test/fixtures/pdf-sample-views';
import { buildCorrectionXml } from '@/server/ksef/fa3/build-correction';
import { mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import { fixtureOrder4817 } from '@/test/fixtures/wc-payloads';
import { PAGE, QR } from './layout';
import { renderDocumentPdf } from './render';

const squash = (s: string) => s.replace(/\s+/g, ' ');

/** No two words on a page overlap, every word sits inside the margins, the footer line is on every page. */
function expectNoOverlap(pages: PageBox[]) {
  for (const p of pages) {
    expect(p.height).toBeCloseTo(PAGE.height, 1);
    expect(p.width).toBeCloseTo(PAGE.width, 1);
    const footerTop = p.height - PAGE.marginBottom + 1;
    const footer = p.words.filter((w) => w.yMin >= footerTop);
    expect(footer.map((w) => w.text).join(' ')).toMatch(/^Faktura .* Strona \d+ z \d+$/);
    for (const w of p.words) {
      expect(w.xMin, w.text).toBeGreaterThanOrEqual(PAGE.marginX - 1);
      expect(w.xMax, w.text).toBeLessThanOrEqual(p.width - PAGE.marginX + 1);
      expect(w.yMin, w.text).toBeGreaterThanOrEqual(PAGE.marginTop - 1);
      if (w.yMin < footerTop) expect(w.yMax, w.text).toBeLessThanOrEqual(p.height - PAGE.marginBottom + 1);
    }
    const words = [...p.words].sort((a, b) => a.yMin - b.yMin);
    for (let i = 0; i < words.length; i++) {
      const a = words[i]!;
      for (let j = i + 1; j < words.length && (words[j]?.yMin ?? Infinity) < a.yMax - 0.5; j++) {
        const b = words[j]!;
        const overlapX = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
        expect(overlapX > 0.5, `page ${a.page}: "${a.text}" overlaps "${b.text}"`).toBe(false);
      }
    }
  }
}

/** Edits a fixture XML: each [from, to] must match once. */
function edit(xml: string, ...changes: Array<[string | RegExp, string]>): string {
  return changes.reduce((x, [from, to]) => {
    expect(x.match(from), String(from)).not.toBeNull();
    return x.replace(from, to);
  }, xml);
}

describe('invoice 4817 (PLN)', () => {
  const xml = fixtureXml.invoice4817();
  const view = invoice4817View(xml);
  let pdf: Buffer;
  let text: string;
  beforeAll(async () => {
    pdf = await renderDocumentPdf(view);
    text = squash(pdfText(pdf, 'raw'));
  });

  test('prints the official wording of the header, parties, details, payment and order', () => {
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    for (const s of [
      'Krajowy System e-Faktur',
      'Numer faktury FV/2026/06/0042',
      'Faktura podstawowa',
      `Numer KSeF: ${KSEF_4817}`,
      'Sprzedawca',
      'Nabywca',
      'NIP: 5265877635',
      'Nazwa: Kawowy Świat Sp. z o.o.',
      'NIP: 3861610227',
      'Nazwa: Biuro Projektowe Kreska Sp. z o.o.',
      'Adres ul. Marszałkowska 100/5 00-026 Warszawa Polska',
      'Adres ul. Piotrkowska 120 lok. 4 90-006 Łódź Polska',
      'E-mail: faktury@kawowyswiat.example.pl',
      'Tel.: +48 22 123 45 67',
      'Numer klienta: 57',
      // Podmiot2 JST and GV are printed TAK or NIE, always (the Ministry's visualisation)
      'Faktura dotyczy jednostki podrzędnej JST: NIE',
      'Faktura dotyczy członka grupy VAT: NIE',
      'Szczegóły',
      'Data wystawienia, z zastrzeżeniem art. 106na ust. 1 ustawy: 02.06.2026',
      'Miejsce wystawienia: Warszawa',
      'Data dokonania lub zakończenia dostawy towarów lub wykonania usługi: 01.06.2026',
      'Kod waluty: PLN',
      'Płatność',
      'Informacja o płatności: Zapłacono',
      'Forma płatności: Przelew',
      'Data zapłaty: 01.06.2026',
      'Warunki transakcji',
      'Data zamówienia: 01.06.2026',
      'Numer zamówienia: 4817',
      'Wytworzona w: woo-ksef',
      'Strona 1 z 1',
    ])
      expect(text).toContain(s);
    // the columns pdftotext keeps apart
    expect(text).not.toMatch(/Faktura VAT| zł|grupy GV|Rabat|Adnotacje|OFFLINE|CERTYFIKAT/);
  });

  test('rows with their UU_ID and index, rates as coded, and the VAT summary labelled by FA(3) field', () => {
    expect(text).toMatch(/1 Ekspres ciśnieniowy Barista Pro 15 bar UU_ID: WC-4817-1001 EXP-BP15 1 szt\. 1 299,00 23% 1 299,00/);
    expect(text).toMatch(/2 Dzbanek do spieniania mleka 600 ml UU_ID: WC-4817-1002 DZB-600 3 szt\. 59,99 23% 179,97/);
    expect(text).toMatch(/4 Dostawa - Kurier DPD UU_ID: WC-4817-1004 1 usł\. 20,00 23% 20,00/);
    expect(text).toContain('Faktura wystawiona w cenach brutto w walucie PLN');
    expect(text).toMatch(/1 23% lub 22% 1 218,67 280,30 1 498,97/);
    expect(text).toMatch(/2 8% lub 7% 166,48 13,32 179,80/);
    expect(text).toContain('Kwota należności ogółem: 1 678,77 PLN');
  });

  test('the QR code decodes to KOD I of the XML that was sent', () => {
    const expected = kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate: '2026-06-02', xml });
    expect(expected).toMatch(/^https:\/\/qr-test\.ksef\.mf\.gov\.pl\/invoice\/5265877635\/02-06-2026\/[\w-]{43}$/);
    expect(decodeQr(pdf, 1)).toBe(expected);
    expect(text).toContain('Sprawdź, czy Twoja faktura znajduje się w KSeF!');
    expect(text.replace(/ /g, '')).toContain(expected); // the link, wrapped where it reaches the margin
    expect(pdf.toString('latin1')).toContain(`/URI (${expected})`); // and clickable
  });

  test('KOD I still decodes from a 60 dpi scan with ZBar, as the official visualisation does (its symbol is 123 pt)', () => {
    expect(decodeQrZbar(pdf, 1, 60)).toBe(view.qr.url);
    expect(decodeQrZbar(pdf, 1, 50)).toBe(view.qr.url);
  });

  test('one page, nothing overlaps', () => {
    const pages = pdfWords(pdf);
    expect(pages).toHaveLength(1);
    expectNoOverlap(pages);
  });
});

describe('correction 4822', () => {
  let pdf: Buffer;
  let text: string;
  beforeAll(async () => {
    pdf = await renderDocumentPdf(correction4822View());
    text = squash(pdfText(pdf, 'raw'));
  });

  test('the corrected invoice as a block of its own, the reason and the effect of TypKorekty 2', () => {
    for (const s of [
      'Faktura korygująca',
      'KOR/2026/06/0003',
      'Dane faktury korygowanej',
      'Dane identyfikacyjne faktury korygowanej',
      'Data wystawienia faktury, której dotyczy faktura korygująca: 02.06.2026',
      'Numer faktury korygowanej: FV/2026/06/0042',
      `Numer KSeF faktury korygowanej: ${KSEF_4817}`,
      'Przyczyna korekty: Zwrot towaru: 1 szt. dzbanka (uszkodzony w transporcie) oraz zwrot kosztów dostawy',
      'Typ skutku korekty: Korekta skutkująca w dacie wystawienia faktury korygującej',
    ])
      expect(text).toContain(s);
    const words = pdfWords(pdf)[0]!
      .words.map((w) => w.text)
      .join(' ');
    expect(words.indexOf('korygowanej')).toBeLessThan(words.indexOf('Sprzedawca')); // before the parties, as in the official
  });

  test('difference rows and the corrected amount', () => {
    expect(text).toContain('Pozycje korekty (różnice)');
    expect(text).toMatch(/1 Dzbanek do spieniania mleka 600 ml UU_ID: WC-4822-1101 DZB-600 -1 szt\. 59,99 23% -59,99/);
    expect(text).toMatch(/2 Dostawa - Kurier DPD UU_ID: WC-4822-1102 -1 usł\. 20,00 23% -20,00/);
    expect(text).toMatch(/1 23% lub 22% -65,03 -14,96 -79,99/);
    expect(text).toContain('Korekta kwoty należności ogółem: -79,99 PLN');
    expect(text).not.toContain(' Kwota należności ogółem');
  });

  test('its QR code decodes to its own KOD I; one page, nothing overlaps', () => {
    expect(decodeQr(pdf, 1)).toBe(kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate: '2026-06-09', xml: fixtureXml.correction4822() }));
    const pages = pdfWords(pdf);
    expect(pages).toHaveLength(1);
    expectNoOverlap(pages);
  });
});

describe('a price-reduction correction (before/after rows, StanPrzed)', () => {
  // 3 jugs of invoice 4817 at 59.99 lose 10.00 each, the express 100.00: two invoice rows, each before and after
  const xml = buildCorrectionXml({
    seller: { nip: '5265877635', name: 'Kawowy Świat Sp. z o.o.', address1: 'ul. Marszałkowska 100/5', address2: '00-026 Warszawa' },
    original: {
      order: mapShopplatformOrder(fixtureOrder4817()),
      number: 'FV/2026/06/0042',
      issueDate: '2026-06-02',
      ksefNumber: KSEF_4817,
      annotations: { cashAccounting: false, splitPayment: false },
      documentId: 'inv_A',
    },
    refund: {
      externalId: 'r1',
      reason: null,
      createdAt: null,
      shippingGrosze: null,
      shippingRef: null,
      lines: [
        { ref: 'WC-4823-1', invoiceLineRef: 'WC-4817-1001', name: 'Ekspres', sku: null, quantity: 1, unitPriceGrosze: 10_000, vatRate: 23 },
        { ref: 'WC-4823-2', invoiceLineRef: 'WC-4817-1002', name: 'Dzbanek', sku: null, quantity: 3, unitPriceGrosze: 1_000, vatRate: 23 },
      ],
    },
    number: 'KOR/2026/06/0004',
    documentId: 'cor_B',
    issueDate: '2026-06-10',
    systemInfo: 'KSeF Relay',
    generatedAt: new Date('2026-06-10T10:00:00Z'),
  });
  let text: string;
  beforeAll(async () => {
    text = squash(pdfText(await renderDocumentPdf(viewOfXml(xml)), 'raw'));
  });

  test('"Stan przed" and "Stan po" group the rows, so the positive values read as states, not differences', () => {
    const rows = text.slice(text.indexOf('Pozycje korekty'), text.indexOf('Korekta kwoty należności ogółem'));
    expect(rows).toMatch(/^Pozycje korekty \(stan przed i stan po korekcie\) /);
    expect(rows).toMatch(
      / Stan przed 1 Ekspres ciśnieniowy Barista Pro 15 bar UU_ID: cor_B-1 EXP-BP15 1 szt\. 1 299,00 23% 1 299,00 3 Dzbanek do spieniania mleka 600 ml UU_ID: cor_B-3 DZB-600 3 szt\. 59,99 23% 179,97 Stan po 2 Ekspres/,
    );
    expect(rows).toMatch(/ 2 Ekspres ciśnieniowy Barista Pro 15 bar UU_ID: cor_B-2 EXP-BP15 1 szt\. 1 299,00 100,00 23% 1 199,00 4 Dzbanek/);
    expect(text).toContain('Korekta kwoty należności ogółem: -130,00 PLN');
  });

  test('each note names its row by NrWiersza and cites the invoice row by UU_ID', () => {
    expect(text).toContain('Lp. Numer wiersza Rodzaj informacji Treść informacji');
    expect(text).toContain('1 1 Pozycja faktury korygowanej FV/2026/06/0042 poz. 1, UU_ID WC-4817-1001');
    expect(text).toContain('2 3 Pozycja faktury korygowanej FV/2026/06/0042 poz. 2, UU_ID WC-4817-1002');
  });
});

describe('invoice 4830 (EUR)', () => {
  test('the exchange rate in the details block, VAT in PLN, amounts with the currency code', async () => {
    const pdf = await renderDocumentPdf(invoice4830EurView());
    const text = squash(pdfText(pdf, 'raw'));
    expect(text).toContain('Kurs waluty wspólny dla wszystkich wierszy faktury');
    expect(text).toContain('Kurs waluty: 4,232200');
    expect(text).toContain('Kod waluty: EUR');
    expect(text).toContain('Kwota podatku PLN');
    expect(text).toMatch(/1 23% lub 22% 417,07 95,93 513,00 405,99/);
    expect(text).toMatch(/2 8% lub 7% 99,54 7,96 107,50 33,69/);
    expect(text).toContain('Kwota należności ogółem: 620,50 EUR');
    expect(text).toContain('Faktura wystawiona w cenach brutto w walucie EUR');
    // DodatkowyOpis, with the NBP table
    expect(text).toContain('Dodatkowe informacje');
    expect(text).toMatch(/Kurs waluty 1 EUR = 4\.2322 PLN, średni kurs NBP, tabela A nr 103\/A\/NBP\/2026/);
    expect(pdfWords(pdf)).toHaveLength(1);
  });
});

describe('facts the XML may carry', () => {
  const xml = edit(
    fixtureXml.invoice4817(),
    ['<P_16>2</P_16>', '<P_16>1</P_16>'],
    ['<P_18A>2</P_18A>', '<P_18A>1</P_18A>'],
    ['<P_12>23</P_12>', '<P_12>23</P_12>\n            <P_12_Zal_15>1</P_12_Zal_15>'],
    [/<P_12>8<\/P_12>/, '<P_12>0 KR</P_12>'],
    ['<JST>2</JST>', '<JST>1</JST>'],
    ['<GV>2</GV>', '<GV>1</GV>'],
    [
      '</Podmiot2>',
      '</Podmiot2>\n<Podmiot3><DaneIdentyfikacyjne><IDWew>3861610227-00001</IDWew><Nazwa>Szkoła Podstawowa nr 7</Nazwa></DaneIdentyfikacyjne><Rola>8</Rola></Podmiot3>',
    ],
    ['<P_1>2026-06-02</P_1>', '<P_1>2026-07-16</P_1>'],
  );

  test('split payment, cash accounting, annex 15, 0% KR, JST/GV, Podmiot3, a late invoice', async () => {
    const withDiscount = xml.replace('<P_9B>59.99</P_9B>', '<P_9B>59.99</P_9B>\n            <P_10>5.00</P_10>');
    const pdf = await renderDocumentPdf(viewOfXml(withDiscount));
    const text = squash(pdfText(pdf, 'raw'));
    for (const s of [
      'Adnotacje',
      'Mechanizm podzielonej płatności',
      'Metoda kasowa',
      'Faktura dotyczy jednostki podrzędnej JST: TAK',
      'Faktura dotyczy członka grupy VAT: TAK',
      'Podmiot inny 1',
      'Identyfikator wewnętrzny: 3861610227-00001',
      'Nazwa: Szkoła Podstawowa nr 7',
      'Rola: Jednostka samorządu terytorialnego - odbiorca',
      'Faktura wystawiona po terminie z art. 106i ustawy, który upłynął: 15.07.2026',
      'Zał. nr 15 do ustawy',
      'Rabat',
    ])
      expect(text).toContain(s);
    expect(text).toMatch(/3 Kawa ziarnista Arabica Brazylia 1 kg UU_ID: WC-4817-1003 KAW-ARB-1KG 2 szt\. 89,90 0% - KR 179,80/);
    expect(text).toMatch(/1 Ekspres ciśnieniowy Barista Pro 15 bar UU_ID: WC-4817-1001 EXP-BP15 1 szt\. 1 299,00 23% 1 1 299,00/);
    expect(text).toMatch(/DZB-600 3 szt\. 59,99 5,00 23% 179,97/);
    expectNoOverlap(pdfWords(pdf));
  });

  test('an order without a date: its number only, no "Data zamówienia: -"', async () => {
    const text = squash(pdfText(await renderDocumentPdf(viewOfXml(edit(fixtureXml.invoice4817(), [/<DataZamowienia>[^<]*<\/DataZamowienia>\s*/, '']))), 'raw'));
    expect(text).toContain('Warunki transakcji Numer zamówienia: 4817');
    expect(text).not.toContain('Data zamówienia');
  });

  test('without P_6 no delivery date is printed', async () => {
    const text = squash(pdfText(await renderDocumentPdf(viewOfXml(edit(fixtureXml.invoice4817(), ['<P_6>2026-06-01</P_6>', '']))), 'raw'));
    expect(text).not.toContain('Data dokonania');
    expect(text).not.toContain('po terminie');
  });

  test('offline: KOD I labelled OFFLINE, KOD II labelled CERTYFIKAT, both decode to their exact URLs', async () => {
    const certificateUrl = `https://qr-test.ksef.mf.gov.pl/certificate/Nip/5265877635/5265877635/01F20A5D352AE590/${'a'.repeat(43)}/${'Q'.repeat(342)}`;
    const view = viewOfXml(fixtureXml.invoice4817(), null, certificateUrl);
    const pdf = await renderDocumentPdf(view);
    const text = squash(pdfText(pdf, 'raw'));
    expect(text).not.toContain('Numer KSeF:');
    expect(text).toContain('Zweryfikuj wystawcę faktury!');
    expect(text).toContain('Nie możesz zeskanować kodu z obrazka? Kliknij w link weryfikacyjny i przejdź do weryfikacji wystawcy!');
    const pages = pdfWords(pdf);
    expectNoOverlap(pages);
    const codeAbove = (caption: string, size: number) => {
      const page = pages.findIndex((p) => p.words.some((w) => w.text === caption));
      const word = pages[page]!.words.find((w) => w.text === caption)!;
      const middle = (word.xMin + word.xMax) / 2;
      return decodeQr(pdf, page + 1, 200, { x: middle - size / 2 - 4, y: word.yMin - size - 8, w: size + 8, h: size + 8 });
    };
    expect(codeAbove('OFFLINE', QR.invoice)).toBe(view.qr.url);
    expect(codeAbove('CERTYFIKAT', QR.certificate)).toBe(certificateUrl);
  });
});

describe.each([
  { rows: 1, pages: 1 },
  // each row prints its UU_ID and KOD I is as large as the official one (123 pt), beside the payment: eleven rows and
  // the delivery row still fit one page (ten did before the UU_IDs and the larger code, five with them stacked)
  { rows: 11, pages: 1 },
  { rows: 12, pages: 2 },
  { rows: 10, pages: 2, longNames: true },
  { rows: 1000, pages: undefined },
])('$rows rows (long names: $longNames)', ({ rows, pages: expectedPages, longNames }) => {
  const xml = sampleInvoiceXml(rows, { longNames });
  const view = viewOfXml(xml);
  let pdf: Buffer;
  let pages: PageBox[];
  beforeAll(async () => {
    pdf = await renderDocumentPdf(view);
    pages = pdfWords(pdf);
  }, 60_000);

  test('every row once, in order; the table header on every page with rows; number and page count on every page', () => {
    if (expectedPages) expect(pages).toHaveLength(expectedPages);
    const text = squash(pdfText(pdf, 'raw'));
    let from = 0;
    for (const row of view.rows) {
      const at = text.indexOf(`${row.lp} ${row.name.split(' ').slice(0, 2).join(' ')}`, from);
      expect(at, `row ${row.lp}`).toBeGreaterThanOrEqual(from);
      from = at;
    }
    const n = pages.length;
    const header = ['Lp.', 'Nazwa', 'towaru', 'usługi', 'Indeks', 'Ilość', 'Miara', 'jedn.', 'Stawka', 'sprzedaży'];
    pages.forEach((p, i) => {
      const words = p.words.map((w) => w.text);
      const footer = p.words.filter((w) => w.yMin > p.height - PAGE.marginBottom).map((w) => w.text);
      expect(footer.join(' ')).toBe(`Faktura podstawowa ${view.number} Strona ${i + 1} z ${n}`);
      if (words.includes('szt.'))
        expect(
          header.filter((h) => !words.includes(h)),
          `page ${i + 1}`,
        ).toEqual([]);
    });
    expect(text.includes('Rabat')).toBe(view.rows.some((r) => r.discount));
    expect(
      pages
        .at(-1)
        ?.words.map((w) => w.text)
        .join(' '),
    ).toContain('Wytworzona w: KSeF Relay');
  });

  test('nothing overlaps, everything inside the margins', () => expectNoOverlap(pages));

  test('the QR code on the last page decodes to KOD I', () => {
    expect(decodeQr(pdf, pages.length)).toBe(view.qr.url);
  });
});
