import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { config } from '../config';
import { kodIUrl } from '../ksef/qr';
import { PAGE } from './layout';
import { decodeQr, pdfText, pdfWords, type PageBox } from './pdf-tools';
import { renderDocumentPdf } from './render';
import { correction4822View, invoice4817View, invoice4830EurView, manyRowsView } from './sample-views';

// The worked examples' XML, read in place from the shared reference tree.
const fixture = (name: string) => readFileSync(path.resolve(config().KSEF_SCHEMAS_DIR, '../../domain/fixtures', name));

const squash = (s: string) => s.replace(/\s+/g, ' ');

/** No two words on a page overlap, and every word sits inside the margins or in the footer line. */
function expectNoOverlap(pages: PageBox[]) {
  for (const p of pages) {
    expect(p.height, 'react-pdf stretches a page its content overflows').toBeCloseTo(PAGE.height, 1);
    const footerTop = p.height - PAGE.marginBottom + 1;
    const footer = p.words.filter((w) => w.yMin >= footerTop);
    expect(footer.map((w) => w.text).join(' ')).toMatch(/^Faktura .* Strona \d+ z \d+$/);
    for (const w of p.words) {
      expect(w.xMin).toBeGreaterThanOrEqual(PAGE.marginX - 1);
      expect(w.xMax).toBeLessThanOrEqual(p.width - PAGE.marginX + 1);
      expect(w.yMax).toBeLessThanOrEqual(p.height);
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

describe('invoice 4817 (PLN)', () => {
  const xml = fixture('fa3-vat-pln-order-4817.xml');
  const view = invoice4817View(xml);
  let pdf: Buffer;
  let text: string;
  beforeAll(async () => {
    pdf = await renderDocumentPdf(view);
    text = squash(pdfText(pdf));
  });

  test('shows the parties, number, KSeF number, dates and payment', () => {
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    for (const s of [
      'Faktura VAT', 'Numer faktury FV/2026/06/0042', 'Numer KSeF: 5265877635-20260602-01000016B2C4-ED',
      'Sprzedawca', 'Nabywca', 'Kawowy Świat Sp. z o.o.', 'Biuro Projektowe Kreska Sp. z o.o.',
      'NIP: 5265877635', 'NIP: 3861610227', 'ul. Marszałkowska 100/5', '90-006 Łódź',
      'Data wystawienia 02.06.2026', 'Miejsce wystawienia Warszawa', 'Data dokonania dostawy 01.06.2026', 'Waluta PLN',
      'Forma płatności Przelew', 'Zapłacono Tak', 'Data zapłaty 01.06.2026', 'Strona 1 z 1',
    ]) expect(text).toContain(s);
  });

  test('shows the rows and the totals per rate', () => {
    expect(text).toMatch(/1 Ekspres ciśnieniowy Barista Pro 15 bar EXP-BP15 1 szt\. 1 299,00 23% 1 299,00/);
    expect(text).toMatch(/2 Dzbanek do spieniania mleka 600 ml DZB-600 3 szt\. 59,99 23% 179,97/);
    expect(text).toMatch(/4 Dostawa - Kurier DPD 1 usł\. 20,00 23% 20,00/);
    expect(text).toMatch(/1 23% 1 218,67 280,30 1 498,97/);
    expect(text).toMatch(/2 8% 166,48 13,32 179,80/);
    expect(text).toContain('Kwota należności ogółem: 1 678,77 zł');
  });

  test('the QR code decodes to KOD I of the XML that was sent', () => {
    const expected = kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate: '2026-06-02', xml });
    expect(expected).toMatch(/^https:\/\/qr-test\.ksef\.mf\.gov\.pl\/invoice\/5265877635\/02-06-2026\/[\w-]{43}$/);
    expect(decodeQr(pdf, 1)).toBe(expected);
    expect(text).toContain('Sprawdź, czy Twoja faktura znajduje się w KSeF!');
    expect(text.replace(/\/ /g, '/')).toContain(expected); // the link, printed in two lines
  });

  test('nothing overlaps', () => expectNoOverlap(pdfWords(pdf)));
});

describe('correction 4822', () => {
  const xml = fixture('fa3-kor-pln-refund-4822.xml');
  let pdf: Buffer;
  let text: string;
  beforeAll(async () => {
    pdf = await renderDocumentPdf(correction4822View(xml));
    text = squash(pdfText(pdf));
  });

  test('refers to the corrected invoice and gives the reason', () => {
    for (const s of [
      'Faktura korygująca', 'KOR/2026/06/0003', 'Dane faktury korygowanej', 'Numer faktury korygowanej FV/2026/06/0042',
      'Numer KSeF faktury korygowanej 5265877635-20260602-01000016B2C4-ED',
      'Przyczyna korekty Zwrot towaru: 1 szt. dzbanka (uszkodzony w transporcie) oraz zwrot kosztów dostawy',
    ]) expect(text).toContain(s);
  });

  test('shows the difference rows and negative totals', () => {
    expect(text).toContain('Pozycje korekty (różnice)');
    expect(text).toMatch(/1 Dzbanek do spieniania mleka 600 ml DZB-600 -1 szt\. 59,99 23% -59,99/);
    expect(text).toMatch(/2 Dostawa - Kurier DPD -1 usł\. 20,00 23% -20,00/);
    expect(text).toMatch(/1 23% -65,03 -14,96 -79,99/);
    expect(text).toContain('Kwota należności ogółem: -79,99 zł');
  });

  test('its QR code decodes to its own KOD I', () => {
    expect(decodeQr(pdf, 1)).toBe(kodIUrl({ environment: 'test', sellerNip: '5265877635', issueDate: '2026-06-09', xml }));
  });
});

describe('invoice 4830 (EUR)', () => {
  test('shows VAT in PLN and the NBP rate with its table and date', async () => {
    const text = squash(pdfText(await renderDocumentPdf(invoice4830EurView(fixture('fa3-vat-eur-order-4830.xml')))));
    expect(text).toContain('Kwota podatku w PLN');
    expect(text).toMatch(/1 23% 417,07 95,93 513,00 405,99/);
    expect(text).toMatch(/2 8% 99,54 7,96 107,50 33,69/);
    expect(text).toContain('Kurs waluty: 1 EUR = 4,2322 PLN, średni kurs NBP z tabeli 103/A/NBP/2026 z dnia 29.05.2026');
    expect(text).toContain('Kwota należności ogółem: 620,50 EUR');
  });
});

describe('1000 rows', () => {
  const view = manyRowsView(1000);
  let pdf: Buffer;
  let pages: PageBox[];
  beforeAll(async () => {
    pdf = await renderDocumentPdf(view);
    pages = pdfWords(pdf);
  }, 60_000);

  test('every row appears once, in order, with the table header on every page that has rows', () => {
    const text = squash(pdfText(pdf));
    let from = 0;
    for (const [i, row] of view.rows.entries()) {
      // long names wrap, so match the number and the start of the name
      const at = text.indexOf(`${i + 1} ${row.name.split(' ').slice(0, 2).join(' ')}`, from);
      expect(at, `row ${i + 1}`).toBeGreaterThanOrEqual(from);
      from = at;
    }
    const n = pages.length;
    expect(n).toBeGreaterThan(20);
    const header = ['Lp.', 'Nazwa', 'towaru', 'usługi', 'Indeks', 'Ilość', 'Miara', 'jedn.', 'Rabat', 'Stawka', 'sprzedaży'];
    pages.forEach((p, i) => {
      const words = p.words.map((w) => w.text);
      expect(words.join(' ')).toContain(`Strona ${i + 1} z ${n}`);
      const hasRows = words.includes('szt.');
      if (i < n - 1) expect(hasRows).toBe(true);
      if (hasRows) expect(header.filter((h) => !words.includes(h)), `page ${i + 1}`).toEqual([]);
    });
    expect(pages.at(-1)?.words.map((w) => w.text).join(' ')).toContain('Podsumowanie stawek podatku');
  });

  test('nothing overlaps on any page', () => expectNoOverlap(pages));

  test('the QR code on the last page still decodes', () => {
    expect(decodeQr(pdf, pages.length)).toBe(view.qr.url);
  });
});
