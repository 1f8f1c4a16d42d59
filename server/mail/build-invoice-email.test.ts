import { describe, expect, test } from 'vitest';
import { buildInvoiceEmail, type InvoiceEmailInput } from './build-invoice-email';

const INPUT: InvoiceEmailInput = {
  sellerName: 'Kawowy Świat Sp. z o.o.',
  documentKind: 'invoice',
  number: 'FV/2026/06/0042',
  ksefNumber: '5265877635-20260602-01000016B2C4-ED',
  pdfUrl: 'https://relay.example/d/tok_abc',
  pdf: Buffer.from('%PDF-1.7 test'),
  filename: 'FV-2026-06-0042.pdf',
  to: 'ksiegowosc@kreska.example.pl',
  from: 'KSeF Relay <faktury@ksef-relay.local>',
};

describe('buildInvoiceEmail', () => {
  test('an invoice: Polish and English subject and text with seller, number, KSeF number and link', () => {
    const mail = buildInvoiceEmail(INPUT);
    expect(mail.subject).toBe('Faktura FV/2026/06/0042 – Kawowy Świat Sp. z o.o. / Invoice FV/2026/06/0042');
    for (const fragment of [
      'faktura nr FV/2026/06/0042',
      'Sprzedawca: Kawowy Świat Sp. z o.o.',
      'Numer KSeF: 5265877635-20260602-01000016B2C4-ED',
      'PDF do pobrania: https://relay.example/d/tok_abc',
      'invoice no. FV/2026/06/0042',
      'Seller: Kawowy Świat Sp. z o.o.',
      'KSeF number: 5265877635-20260602-01000016B2C4-ED',
      'Download the PDF: https://relay.example/d/tok_abc',
    ]) {
      expect(mail.text).toContain(fragment);
    }
    expect(mail.text.indexOf('Sprzedawca')).toBeLessThan(mail.text.indexOf('Seller'));
    expect(mail).toMatchObject({ from: INPUT.from, to: INPUT.to });
    expect(mail.attachments).toEqual([{ filename: 'FV-2026-06-0042.pdf', content: INPUT.pdf, contentType: 'application/pdf' }]);
  });

  test('a correction says so in both languages', () => {
    const mail = buildInvoiceEmail({ ...INPUT, documentKind: 'correction', number: 'KOR/2026/06/0003' });
    expect(mail.subject).toBe('Faktura korygująca KOR/2026/06/0003 – Kawowy Świat Sp. z o.o. / Corrective invoice KOR/2026/06/0003');
    expect(mail.text).toContain('faktura korygująca nr KOR/2026/06/0003');
    expect(mail.text).toContain('corrective invoice no. KOR/2026/06/0003');
  });

  test('line breaks in shop-supplied names cannot reach the headers', () => {
    const mail = buildInvoiceEmail({ ...INPUT, sellerName: 'Evil\r\nBcc: victim@example.com' });
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.subject).toContain('Evil Bcc: victim@example.com');
  });
});
