import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { freePort, waitFor } from '@/test/web';
import { config, resetConfig } from '@/server/config';
import { documents, files } from '@/server/db/schema';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { serializeDocument } from '@/server/documents/serialize-document';
import { randomToken } from '@/server/ids';
import { kodIUrl } from '@/server/ksef/qr';
import { closeMailTransports } from '@/server/mail/send-mail';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { decodeQr, pdfText } from '@/test/pdf-tools';
import { storeDocumentPdf } from './store-document-pdf';

const t = useTestDatabase();
const ksef = useKsefEmulator();
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  resetConfig();
});
useWorker(t.url);
afterAll(async () => {
  closeMailTransports();
  await sink?.close();
});

async function connectedSeller() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  return { ...acct, nip };
}

const buyerEmail = () => `buyer-${randomToken(48).toLowerCase()}@example.test`;

async function acceptedInvoice(scope: { accountId: string; mode: 'test' }, email: string | null) {
  const order = paidOrder();
  const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput({ ...order, buyer: { ...order.buyer, email: email ?? undefined } }));
  return waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error', 'skipped']);
}

/** Waits until the PDF is stored and the e-mail reached `mail`. */
async function withPdf(id: string, mail: 'sent' | 'not_needed' | 'failed') {
  await waitFor(
    async () => {
      const [doc] = await t.db().select({ f: documents.pdfFileId, m: documents.mailStatus }).from(documents).where(eq(documents.id, id));
      return !!doc?.f && doc.m === mail;
    },
    30_000,
    () => `document ${id} has no PDF or mail is not ${mail}`,
  );
  const [doc] = await t.db().select().from(documents).where(eq(documents.id, id));
  const [file] = await t.db().select().from(files).where(eq(files.id, doc!.pdfFileId!));
  return { doc: doc!, file: file! };
}

/** The lane's PDF and mail steps still in the queue. */
const laneJobs = async (doc: { accountId: string; mode: string }) =>
  (
    await t
      .db()
      .execute<{ key: string }>(
        sql`select key from graphile_worker.jobs where key in (${`pdf:${doc.accountId}:${doc.mode}`}, ${`mail:${doc.accountId}:${doc.mode}`})`,
      )
  ).map((r) => r.key);

const mailTo = async (to: string) => (await (await fetch(`${sink.httpUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as SinkMessage[];
const squash = (s: string) => s.replace(/\s+/g, ' ');

describe('the PDF lane and its e-mails after acceptance', () => {
  test('the PDF shows seller, buyer, number, KSeF number and totals; its QR is KOD I of the stored XML; one e-mail with it', async () => {
    const seller = await connectedSeller();
    const email = buyerEmail();
    const accepted = await acceptedInvoice(seller.testScope, email);
    expect(accepted.status).toBe('accepted');
    const { doc, file } = await withPdf(accepted.id, 'sent');

    expect(file).toMatchObject({ documentId: doc.id, contentType: 'application/pdf', filename: `${doc.number!.replaceAll('/', '-')}.pdf` });
    const text = squash(pdfText(file.content, 'raw'));
    for (const s of [
      `Numer faktury ${doc.number}`,
      `Numer KSeF: ${doc.ksefNumber}`,
      VALID_SELLER.name,
      `NIP: ${seller.nip}`,
      'ul. Prosta 1',
      'Kupiec sp. z o.o.',
      'NIP: 5260250274',
      'ul. Długa 5',
      'Kwota należności ogółem: 149,88 PLN',
    ])
      expect(text).toContain(s);
    // P_9B is the price before the discount and P_10 the line's discount (one convention); buckets by the gross method
    expect(text).toMatch(new RegExp(`1 Kubek ceramiczny UU_ID: ${doc.id}-1 KUB-1 2 szt\\. 49,99 5,00 23% 94,98`));
    expect(text).toMatch(/23% lub 22% 89,41 20,57 109,98/);
    expect(text).toMatch(/5% 38,00 1,90 39,90/);

    const qr = kodIUrl({ environment: 'test', sellerNip: seller.nip, issueDate: doc.issueDate!, xml: doc.fa3Xml! });
    expect(qr.startsWith(`https://qr-test.ksef.mf.gov.pl/invoice/${seller.nip}/`)).toBe(true);
    expect(decodeQr(file.content, 1)).toBe(qr);

    expect(doc.pdfToken).toMatch(/^[0-9A-Za-z]{22}$/);
    const pdfUrl = `${config().PUBLIC_BASE_URL}/d/${doc.pdfToken}`;
    expect(serializeDocument(doc).pdf_url).toBe(pdfUrl);
    expect(doc.mailError).toBeNull();

    const [mail, ...more] = await mailTo(email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe(`Faktura ${doc.number} – ${VALID_SELLER.name} / Invoice ${doc.number}`);
    for (const s of [`Numer KSeF: ${doc.ksefNumber}`, `KSeF number: ${doc.ksefNumber}`, `PDF do pobrania: ${pdfUrl}`, `Seller: ${VALID_SELLER.name}`]) {
      expect(mail!.text).toContain(s);
    }
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0]).toMatchObject({ filename: file.filename, contentType: 'application/pdf' });
    expect(Buffer.from(mail!.attachments[0]!.content, 'base64').equals(file.content)).toBe(true);

    // run twice (a retried or duplicated job): nothing new is stored, enqueued or sent
    expect(await storeDocumentPdf(t.db(), doc.id, { mail: 'inline' })).toBe('already_stored');
    const stored = await t.db().select({ id: files.id }).from(files).where(eq(files.documentId, doc.id));
    expect(stored).toHaveLength(1);
    // the e-mail went with the PDF step: no mail step was ever needed
    expect(await laneJobs(doc)).toEqual([]);
    expect(await mailTo(email)).toHaveLength(1);
  });

  test("a correction's PDF shows the corrected invoice and negative rows, and is e-mailed too", async () => {
    const seller = await connectedSeller();
    const email = buyerEmail();
    const invoice = await acceptedInvoice(seller.testScope, email);
    const refund = parseRefundInput({
      external_id: `r-${randomToken(48)}`,
      reason: 'Zwrot kubka',
      lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
    });
    const { document } = await createCorrectionDocument(t.db(), seller.testScope, invoice.id, refund);
    expect((await waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error', 'skipped'])).status).toBe('accepted');
    const { doc, file } = await withPdf(document.id, 'sent');

    const text = squash(pdfText(file.content, 'raw'));
    for (const s of [
      'Faktura korygująca',
      `Numer KSeF: ${doc.ksefNumber}`,
      `Numer faktury korygowanej: ${invoice.number}`,
      `Numer KSeF faktury korygowanej: ${invoice.ksefNumber}`,
      'Przyczyna korekty: Zwrot kubka',
      'Korekta kwoty należności ogółem: -47,49 PLN',
    ])
      expect(text).toContain(s);
    // the returned mug at what it cost after the line discount (94.98 / 2), never as 49.99 with "Rabat -2,50"
    expect(text).toMatch(/1 Kubek ceramiczny UU_ID: cor_\w+-1 KUB-1 -1 szt\. 47,49 23% -47,49/);
    expect(text).not.toContain('Rabat');
    // 23 % bucket 109.98 → 62.49 gross: VAT 20.57 → 11.69
    expect(text).toMatch(/23% lub 22% -38,61 -8,88 -47,49/);
    expect(decodeQr(file.content, 1)).toBe(kodIUrl({ environment: 'test', sellerNip: seller.nip, issueDate: doc.issueDate!, xml: doc.fa3Xml! }));

    const subjects = (await mailTo(email)).map((m) => m.subject);
    expect(subjects.sort()).toEqual([
      `Faktura ${invoice.number} – ${VALID_SELLER.name} / Invoice ${invoice.number}`,
      `Faktura korygująca ${doc.number} – ${VALID_SELLER.name} / Corrective invoice ${doc.number}`,
    ]);
  });

  test('no buyer e-mail: PDF stored, mail not_needed, nothing sent', async () => {
    const seller = await connectedSeller();
    const accepted = await acceptedInvoice(seller.testScope, null);
    const { doc } = await withPdf(accepted.id, 'not_needed');
    expect(doc.buyerEmail).toBeNull();
    expect(await laneJobs(doc)).toEqual([]);
  });

  test('SMTP down: the refusal is recorded and retried with back-off until the server is up, then sent once', async () => {
    const port = await freePort();
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    resetConfig();
    let late: SmtpSink | undefined;
    try {
      const seller = await connectedSeller();
      const email = buyerEmail();
      const accepted = await acceptedInvoice(seller.testScope, email);
      await waitFor(
        async () => {
          const [doc] = await t.db().select().from(documents).where(eq(documents.id, accepted.id));
          return doc?.mailStatus === 'pending' && /ECONNREFUSED/.test(doc.mailError ?? '');
        },
        30_000,
        () => 'the refused attempt was not recorded',
      );
      late = await startSmtpSink({ port });
      const { doc } = await withPdf(accepted.id, 'sent');
      expect(doc.mailError).toBeNull();
      const received = (await (await fetch(`${late.httpUrl}/messages`)).json()) as SinkMessage[];
      expect(received.map((m) => m.to)).toEqual([[email]]);
      expect(doc.mailAttempts).toBeGreaterThan(1);
      // the lane's mail step completed and is gone
      expect(await laneJobs(doc)).toEqual([]);
    } finally {
      process.env.SMTP_URL = sink.url;
      resetConfig();
      await late?.close();
    }
  }, 60_000);
});
