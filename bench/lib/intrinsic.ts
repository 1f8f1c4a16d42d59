/**
 * The work a document needs whatever carries it (issue 33 part 3): in one process and one loop, for `documents`
 * 10-line invoices, the FA(3) build, its XSD check, the PDF and the buyer's MIME message with the PDF attached
 * (nodemailer's own message build, to a buffer instead of a socket). Prints `{"cpuMsPerDocument": …}` on stdout.
 * cost-per-document.ts runs it as a child of its own (NODE_ENV=production, as the workers run React).
 * Run alone: NODE_ENV=production npx tsx bench/lib/intrinsic.ts [documents=200]
 */
import nodemailer from 'nodemailer';
import { buildInvoiceEmail } from '@/server/mail/build-invoice-email';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import { validateXml } from '@/server/ksef/xsd';
import { documentViewFromXml } from '@/server/pdf/document-view';
import { renderDocumentPdf } from '@/server/pdf/render';
import type { NormalizedLine, NormalizedOrder } from '@/server/orders/types';
import { normalizedOrder } from '@/test/fixtures/normalized-order';
import { readArgs } from './args';

const args = readArgs({ documents: 200, warmup: 20 });
const RATES = [23, 8, 5, 0] as const;

/** The same order the pipeline benchmark posts (bench/lib/orders.ts): 10 lines over the four rates, a shipping row. */
function order(n: number): NormalizedOrder {
  const lines = Array.from({ length: 10 }, (_, i): NormalizedLine => {
    const quantity = (i % 3) + 1;
    const unit = (10 + (i % 90)) * 100 + ((i * 7) % 100);
    const discount = i % 4 === 0 ? 100 : 0;
    return {
      ref: null,
      name: `Produkt ${i + 1}`,
      sku: `SKU-${i + 1}`,
      quantity,
      unitPriceGrosze: unit,
      discountGrosze: discount,
      grossGrosze: unit * quantity - discount,
      vatRate: RATES[i % 4]!,
      annex15: false,
    };
  });
  return normalizedOrder({
    externalId: `intrinsic-${n}`,
    number: `intrinsic-${n}`,
    lines,
    shipping: [{ ref: null, name: 'Kurier', grossGrosze: 1500, vatRate: 23 }],
  });
}

const seller = { nip: '5265877635', name: 'Sklep 1 sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' };
const mail = nodemailer.createTransport({ streamTransport: true, buffer: true });

async function oneDocument(n: number): Promise<number> {
  const number = `FV/2026/11/${n}`;
  const xml = buildInvoiceXml({
    seller,
    order: order(n),
    number,
    documentId: `inv_${String(n).padStart(26, '0')}`,
    issueDate: '2026-11-20',
    systemInfo: 'KSeF Relay',
  });
  const check = validateXml(xml, 'fa3');
  if (!check.ok) throw new Error(check.message);
  const pdf = await renderDocumentPdf(documentViewFromXml(xml, { ksefNumber: '5265877635-20261120-01000016B2C4-ED', environment: 'test' }));
  const message = buildInvoiceEmail({
    sellerName: seller.name,
    documentKind: 'invoice',
    number,
    ksefNumber: '5265877635-20261120-01000016B2C4-ED',
    pdfUrl: `https://relay.example/pdf/${n}`,
    pdf,
    filename: `${number.replaceAll('/', '_')}.pdf`,
    to: 'kupiec@example.test',
    from: 'faktury@example.test',
  });
  const sent = (await mail.sendMail(message)) as { message: Buffer };
  return sent.message.length;
}

for (let i = 0; i < args.warmup; i++) await oneDocument(i);
const before = process.cpuUsage();
let bytes = 0;
for (let i = 0; i < args.documents; i++) bytes += await oneDocument(args.warmup + i);
const used = process.cpuUsage(before);
console.log(JSON.stringify({ cpuMsPerDocument: (used.user + used.system) / 1000 / args.documents, mimeBytes: bytes / args.documents }));
