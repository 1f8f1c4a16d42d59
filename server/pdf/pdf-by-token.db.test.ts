import { and, eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { documents, events, files } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { pdfUrl } from '@/server/documents/serialize-document';
import { parseOrderInput } from '@/server/orders/order-schema';
import { pdfByToken } from './pdf-by-token';
import { storeDocumentPdf } from './store-document-pdf';

const t = useTestDatabase();
const ksef = useKsefEmulator();
// no pdf_render: the buyer opens the link before the worker renders the PDF
useWorker(t.url, { tasks: '-pdf_render,-mail_send,-webhook_deliver' });

async function acceptedWithoutPdf() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const order = paidOrder();
  const { document } = await createInvoiceDocument(
    t.db(),
    acct.testScope,
    parseOrderInput({ ...order, buyer: { ...order.buyer, email: 'buyer@example.test' } }),
  );
  const doc = await waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error', 'skipped']);
  expect(doc.status).toBe('accepted');
  return doc;
}

const fileRows = (documentId: string) => t.db().select({ id: files.id }).from(files).where(eq(files.documentId, documentId));

test('the accepted event carries pdf_url: the token is made in the acceptance transaction', async () => {
  const doc = await acceptedWithoutPdf();
  expect(doc.pdfToken).toMatch(/^[0-9A-Za-z]{22}$/);
  expect(doc.pdfFileId).toBeNull();
  // the body is what every webhook delivery of the event sends, byte for byte
  const [event] = await t
    .db()
    .select({ body: events.body })
    .from(events)
    .where(and(eq(events.type, 'invoice.accepted'), eq(events.documentId, doc.id)));
  expect((JSON.parse(event!.body) as { data: { object: { pdf_url: string | null } } }).data.object.pdf_url).toBe(pdfUrl(doc.pdfToken!));
});

test('the link renders the PDF on its first request and stores it for the worker and the mail', async () => {
  const doc = await acceptedWithoutPdf();
  const pdf = await pdfByToken(t.db(), doc.pdfToken!);
  expect(pdf?.content.subarray(0, 5).toString()).toBe('%PDF-');
  expect(pdf?.filename).toBe(`${doc.number!.replaceAll('/', '-')}.pdf`);
  const [stored] = await t.db().select().from(documents).where(eq(documents.id, doc.id));
  expect(stored!.pdfFileId).not.toBeNull();
  expect(stored!.pdfToken).toBe(doc.pdfToken);
  expect(stored!.mailStatus).toBe('pending');
  // no PDF step will mail it (it finds the PDF stored): the lane's mail step does
  const [mailJob] = await t
    .db()
    .execute<{ n: number }>(
      sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'mail_send' and key = ${`mail:${doc.accountId}:${doc.mode}`}`,
    );
  expect(mailJob?.n).toBe(1);
  // the worker's pdf_render and a second opening reuse the stored file
  expect(await storeDocumentPdf(t.db(), doc.id, { mail: 'inline' })).toBe('already_stored');
  expect((await pdfByToken(t.db(), doc.pdfToken!))?.content.equals(pdf!.content)).toBe(true);
  expect(await fileRows(doc.id)).toHaveLength(1);
});

test('two first requests at once store one file and serve the same bytes', async () => {
  const doc = await acceptedWithoutPdf();
  const [a, b] = await Promise.all([pdfByToken(t.db(), doc.pdfToken!), pdfByToken(t.db(), doc.pdfToken!)]);
  expect(a?.content.equals(b!.content)).toBe(true);
  expect(await fileRows(doc.id)).toHaveLength(1);
});

test('an unknown token, or a token of a document with nothing to print, gives nothing', async () => {
  expect(await pdfByToken(t.db(), 'A'.repeat(22))).toBeUndefined();
  const acct = await createTestAccount(t.db());
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
  await t
    .db()
    .update(documents)
    .set({ pdfToken: 'B'.repeat(22) })
    .where(eq(documents.id, document.id));
  expect(await pdfByToken(t.db(), 'B'.repeat(22))).toBeUndefined();
});
