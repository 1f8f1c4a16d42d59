import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { prepareDocument } from '@/server/documents/prepare-document';
import { documents } from '@/server/db/schema';
import { textAt, xmlTree } from '@/server/ksef/fa3/xml-tree';
import { validateXml } from '@/server/ksef/xsd';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { sendLane } from './send-lane';

const t = useTestDatabase();
const ksef = useKsefEmulator();
// numbering and sending run by hand with a chosen "now"; the worker only follows KSeF's answer
useWorker(t.url, { tasks: '-document_prepare,-ksef_send' });

/**
 * Issue 13 item 4: P_1 is fixed when the number is taken, sending may come later. Dates are in the past of the
 * real clock, because the emulator refuses a P_1 after its own today.
 */
async function numberedThenSent(paidAt: string, numberedAt: string, sentAt: string) {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const { document } = await createInvoiceDocument(
    t.db(),
    acct.testScope,
    parseOrderInput(paidOrder({ paid_at: paidAt, created_at: paidAt }), new Date(numberedAt)),
  );
  await prepareDocument(t.db(), document.id, new Date(numberedAt));
  await sendLane(t.db(), acct.testScope, new Date(sentAt));
  const done = await waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error']);
  const warnings = await t
    .db()
    .execute<{ code: string }>(
      sql`select error->>'code' as code from document_transitions where document_id = ${document.id} and error->>'type' = 'warning' order by id`,
    );
  return { done, p1: textAt(xmlTree(done.fa3Xml!), 'Fa/P_1'), timelineWarnings: warnings.map((w) => w.code) };
}

describe('P_1 against the day of sending (Europe/Warsaw)', () => {
  test('same day: sent as numbered, online', async () => {
    const { done, p1, timelineWarnings } = await numberedThenSent('2026-11-02T09:00:00Z', '2026-11-02T10:00:00Z', '2026-11-02T21:00:00Z');
    expect([done.status, done.number, done.issueDate, p1, done.offlineMode, done.offlineDeadline]).toEqual([
      'accepted',
      'FV/2026/11/1',
      '2026-11-02',
      '2026-11-02',
      false,
      null,
    ]);
    expect(timelineWarnings).toEqual([]);
  });

  test('next day in the same month: P_1 moves to the sending day, the number stays, the XML is rebuilt and valid', async () => {
    // numbered at 23:30 Warsaw on 2 November, sent at 00:30 on 3 November
    const { done, p1, timelineWarnings } = await numberedThenSent('2026-11-02T21:00:00Z', '2026-11-02T22:30:00Z', '2026-11-02T23:30:00Z');
    expect([done.status, done.number, done.issueDate, p1, done.offlineMode]).toEqual(['accepted', 'FV/2026/11/1', '2026-11-03', '2026-11-03', false]);
    expect(validateXml(done.fa3Xml!, 'fa3')).toEqual({ ok: true });
    expect(timelineWarnings).toEqual(['issue_date_moved']);
    expect(done.warnings.map((w) => w.code)).toEqual(['issue_date_moved']);
  });

  test('next day in another month: sent as issued with offlineMode true; the offline24 deadline is stored', async () => {
    // numbered Saturday 31 October; 1 November is a holiday (and a Sunday), so the deadline is the end of Monday 2 November
    const { done, p1, timelineWarnings } = await numberedThenSent('2026-10-31T09:00:00Z', '2026-10-31T10:00:00Z', '2026-11-02T08:00:00Z');
    expect([done.status, done.number, done.issueDate, p1, done.offlineMode]).toEqual(['accepted', 'FV/2026/10/1', '2026-10-31', '2026-10-31', true]);
    expect(done.offlineDeadline?.toISOString()).toBe('2026-11-02T22:59:59.999Z');
    expect(timelineWarnings).toEqual(['sent_offline']);
    const [row] = await t.db().select({ ref: documents.ksefSessionRef }).from(documents).where(eq(documents.id, done.id));
    expect(row?.ref).toBeTruthy();
  });
});
