import { and, desc, eq, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { inScope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { createInvoiceDocument } from './create-invoice';
import { loadDocument, lockDocument, selectDocuments } from './load-document';
import { transition } from './transition';

const t = useTestDatabase();

test('the raw-SQL loader and the intake statement shape a document exactly as drizzle’s select does, every column type included', async () => {
  const { testScope } = await createTestAccount(t.db());
  const { document } = await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: 'load-1' })));
  // fill the columns intake leaves empty: numbers, dates, JSON, bigint-backed money
  await t.db().execute(sql`
    update documents set number = 'FV/2026/11/7', issue_date = '2026-11-24', total_gross_grosze = 12345678901,
      exchange_rate = '{"rate":"4.2100","date":"2026-11-23","table":"227/A/NBP/2026"}'::jsonb,
      offline_deadline = '2026-11-25T22:59:59.999Z', warnings = '[{"code":"invoice_late","message":"late"}]'::jsonb
    where id = ${document.id}`);
  const [viaDrizzle] = await t.db().select().from(documents).where(eq(documents.id, document.id));
  expect(await loadDocument(t.db(), document.id)).toStrictEqual(viaDrizzle);
  await t.db().transaction(async (tx) => expect(await lockDocument(tx, document.id)).toStrictEqual(viaDrizzle));
  expect(viaDrizzle!.totalGrossGrosze).toBe(12345678901);
  expect(viaDrizzle!.offlineDeadline).toBeInstanceOf(Date);

  const [intakeRow] = await t.db().select().from(documents).where(eq(documents.id, document.id));
  const again = await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: 'load-1' })));
  expect(again.created).toBe(false);
  expect(again.document).toStrictEqual(intakeRow);
  expect(await loadDocument(t.db(), 'inv_missing')).toBeUndefined();
});

test('a status change answers the row as drizzle’s select reads it afterwards, the patch and the new `updated` included', async () => {
  const { testScope } = await createTestAccount(t.db());
  const { document } = await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: 'load-2' })));
  const lastError = { type: 'api_error', code: 'ksef_unavailable', message: 'KSeF did not answer.' };
  const moved = await t.db().transaction((tx) => transition(tx, document, 'queued', { number: 'FV/2026/11/8', issueDate: '2026-11-24', lastError }));
  const [viaDrizzle] = await t.db().select().from(documents).where(eq(documents.id, document.id));
  expect(moved).toStrictEqual(viaDrizzle);
  expect(moved).toMatchObject({ status: 'queued', number: 'FV/2026/11/8', lastError });
  expect(moved.updatedAt.getTime()).toBeGreaterThan(document.updatedAt.getTime());
});

test('selectDocuments answers what drizzle’s select answers for the same condition and order, and nothing without a condition', async () => {
  const { testScope } = await createTestAccount(t.db());
  const { testScope: otherScope } = await createTestAccount(t.db());
  for (const id of ['sel-1', 'sel-2', 'sel-3']) await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: id })));
  await createInvoiceDocument(t.db(), otherScope, parseOrderInput(paidOrder({ external_id: 'sel-other' })));
  const where = and(inScope(documents, testScope), eq(documents.kind, 'invoice'));
  const viaDrizzle = await t.db().select().from(documents).where(where).orderBy(desc(documents.seq));
  expect(viaDrizzle.map((d) => d.orderExternalId)).toEqual(['sel-3', 'sel-2', 'sel-1']);
  expect(await selectDocuments(t.db(), where, desc(documents.seq))).toStrictEqual(viaDrizzle);
  expect(await selectDocuments(t.db(), undefined)).toEqual([]);
});
