import type { DocumentKind } from '../db/schema/enums';

export type InvoiceEmailInput = {
  sellerName: string;
  documentKind: DocumentKind;
  number: string;
  ksefNumber: string;
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
    `Numer KSeF: ${input.ksefNumber}`,
    `PDF do pobrania: ${input.pdfUrl}`,
    '',
    'Dokument został przyjęty przez Krajowy System e-Faktur (KSeF); wiążąca jest jego wersja w KSeF.',
    '',
    '---',
    '',
    'Hello,',
    '',
    `please find attached ${kind.en.toLowerCase()} no. ${number}.`,
    `Seller: ${seller}`,
    `KSeF number: ${input.ksefNumber}`,
    `Download the PDF: ${input.pdfUrl}`,
    '',
    "The document was accepted by Poland's National e-Invoicing System (KSeF); the KSeF version is binding.",
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
