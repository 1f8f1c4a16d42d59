import type { DocumentKind } from '@/server/db/schema/enums';

export type InvoiceEmailInput = {
  sellerName: string;
  documentKind: DocumentKind;
  number: string;
  /** Null for a document issued offline (issue 17): KSeF numbers it later, at the same PDF link. */
  ksefNumber: string | null;
  pdfUrl: string;
  pdf: Buffer;
  filename: string;
  to: string;
  from: string;
};

export type MailMessage = {
  from: string;
  to: string;
  subject: string;
  text: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
};

const KIND = {
  invoice: { pl: 'Faktura', en: 'Invoice' },
  correction: { pl: 'Faktura korygująca', en: 'Corrective invoice' },
} as const satisfies Record<DocumentKind, { pl: string; en: string }>;

/** Shop data ends up in a header: line breaks there would start new headers. */
const oneLine = (value: string): string => value.replace(/\s+/g, ' ').trim();

/** The buyer's e-mail for an accepted document: Polish first, English alongside, the PDF attached. */
export function buildInvoiceEmail(input: InvoiceEmailInput): MailMessage {
  const kind = KIND[input.documentKind];
  const seller = oneLine(input.sellerName);
  const number = oneLine(input.number);
  const text = [
    'Dzień dobry,',
    '',
    `w załączniku przesyłamy dokument: ${kind.pl.toLowerCase()} nr ${number}.`,
    `Sprzedawca: ${seller}`,
    input.ksefNumber ? `Numer KSeF: ${input.ksefNumber}` : 'Numer KSeF: zostanie nadany po przesłaniu faktury do KSeF.',
    `PDF do pobrania: ${input.pdfUrl}`,
    '',
    input.ksefNumber
      ? 'Dokument został przyjęty przez Krajowy System e-Faktur (KSeF); wiążąca jest jego wersja w KSeF.'
      : 'Faktura wystawiona w trybie offline24 (art. 106nda ustawy o VAT): sprzedawca prześle ją do KSeF do końca następnego dnia roboczego; kody QR (OFFLINE i CERTYFIKAT) pozwalają ją zweryfikować.',
    '',
    '---',
    '',
    'Hello,',
    '',
    `please find attached ${kind.en.toLowerCase()} no. ${number}.`,
    `Seller: ${seller}`,
    input.ksefNumber ? `KSeF number: ${input.ksefNumber}` : 'KSeF number: assigned once the invoice reaches KSeF.',
    `Download the PDF: ${input.pdfUrl}`,
    '',
    input.ksefNumber
      ? "The document was accepted by Poland's National e-Invoicing System (KSeF); the KSeF version is binding."
      : 'Issued in offline24 mode: the seller sends it to KSeF by the end of the next working day; the QR codes (OFFLINE and CERTYFIKAT) let you verify it.',
    '',
  ].join('\n');
  return {
    from: input.from,
    to: input.to,
    subject: `${kind.pl} ${number} – ${seller} / ${kind.en} ${number}`,
    text,
    attachments: [{ filename: input.filename, content: input.pdf, contentType: 'application/pdf' }],
  };
}
