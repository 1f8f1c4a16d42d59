import PDFDocument from 'pdfkit';
import { expect, test } from 'vitest';
import { sampleInvoiceXml } from '@/test/fixtures/pdf-sample-views';
import { documentViewFromXml } from './document-view';
import { renderDocumentPdf } from './render';

test('a new PDF opens no font until react-pdf sets ours, and a rendered invoice holds only the embedded DejaVu', async () => {
  const pdf = await renderDocumentPdf(documentViewFromXml(sampleInvoiceXml(3), { ksefNumber: '5265877635-20260602-01000016B2C4-ED', environment: 'test' }));
  const doc = new PDFDocument({ autoFirstPage: false });
  expect(doc._font).toBeNull();
  expect(doc._fontFamilies).toEqual({});
  const fonts = new Set(
    pdf
      .toString('latin1')
      .match(/\/BaseFont \/[A-Z]{6}\+[\w-]+/g)
      ?.map((f) => f.slice(18)),
  );
  expect([...fonts].sort()).toEqual(['DejaVuSans', 'DejaVuSans-Bold']);
});
