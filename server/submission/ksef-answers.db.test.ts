import { sql } from 'drizzle-orm';
import { afterEach, expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { isValidKsefNumber } from '@/server/ksef/ksef-number';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { timeline, useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';

const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);
afterEach(() => ksef.control().clearFaults());

async function sendOne() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
  return { nip, doc: await waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error']) };
}

const requeuedWith = async (id: string) =>
  (
    await t
      .db()
      .execute<{ message: string }>(
        sql`select error->>'message' as message from document_transitions where document_id = ${id} and to_status = 'queued' and error is not null order by id`,
      )
  ).map((r) => r.message);

const sends = async (hash: string | null) => (await ksef.control().counters()).invoices.byHash[hash ?? ''] ?? 0;

test('410 Gone on the invoice status: KSeF metadata finds our invoice by number and hash, and the document is accepted with its number', async () => {
  await ksef.control().setFaults([{ endpoint: 'getInvoiceStatus', kind: 'gone', times: 1 }]);
  const { nip, doc } = await sendOne();
  expect(doc.status).toBe('accepted');
  expect(isValidKsefNumber(doc.ksefNumber!)).toBe(true);
  expect(doc.ksefNumber!.startsWith(nip)).toBe(true);
  expect(doc.upoXml).toContain(doc.ksefNumber);
  expect(await timeline(t.db(), doc.id)).toEqual(['pending', 'queued', 'sending', 'accepted']);
  expect(await sends(doc.xmlSha256)).toBe(1);
  const faults = (await ksef.control().counters()).faults;
  expect(faults.gone).toBeGreaterThanOrEqual(1);
});

test('410 Gone for an invoice KSeF never took: not in the metadata, so it is sent again and accepted, once', async () => {
  // KSeF cancels the first copy (550, so it keeps no number) and has forgotten the status when we ask
  await ksef.control().setFaults([
    { endpoint: 'sendInvoice', kind: 'reject', rejectCode: 550, rejectDetail: 'Przetwarzanie przerwane.', times: 1 },
    { endpoint: 'getInvoiceStatus', kind: 'gone', times: 1 },
  ]);
  const { doc } = await sendOne();
  expect(doc.status).toBe('accepted');
  expect(await timeline(t.db(), doc.id)).toEqual(['pending', 'queued', 'sending', 'queued:ksef_unavailable', 'sending', 'accepted']);
  expect(await sends(doc.xmlSha256)).toBe(2);
  const [row] = await t.db().execute<{ n: number }>(sql`select count(*)::int as n from documents where id = ${doc.id} and ksef_number is not null`);
  expect(row?.n).toBe(1);
});

test('550 "cancelled by the system, try again" on the invoice status: sent again, not rejected', async () => {
  await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'reject', rejectCode: 550, rejectDetail: 'Przetwarzanie przerwane.', times: 1 }]);
  const { doc } = await sendOne();
  expect(doc.status).toBe('accepted');
  expect(await timeline(t.db(), doc.id)).toEqual(['pending', 'queued', 'sending', 'queued:ksef_unavailable', 'sending', 'accepted']);
  expect(await sends(doc.xmlSha256)).toBe(2);
  // KSeF answered: the document says what KSeF asked for, not that KSeF did not answer
  expect(await requeuedWith(doc.id)).toEqual([expect.stringMatching(/^KSeF asked for the invoice to be sent again \(invoice status 550 /)]);
});

test('21184 "session temporarily unavailable" on the upload: the document stays claimed and a new session takes it, received once', async () => {
  await ksef
    .control()
    .setFaults([{ endpoint: 'sendInvoice', kind: 'exception', exceptionCode: 21184, exceptionDescription: 'Sesja tymczasowo niedostępna.', times: 1 }]);
  const before = (await ksef.control().counters()).requests.openOnlineSession ?? 0;
  const { doc } = await sendOne();
  expect(doc.status).toBe('accepted');
  // never back in the queue: the claim moved to the new session with the document
  expect(await timeline(t.db(), doc.id)).toEqual(['pending', 'queued', 'sending', 'accepted']);
  expect(await sends(doc.xmlSha256)).toBe(1);
  const counters = await ksef.control().counters();
  expect(counters.faults.exception).toBe(1);
  // the refused session is left; the document went in the next one
  expect((counters.requests.openOnlineSession ?? 0) - before).toBe(2);
});
