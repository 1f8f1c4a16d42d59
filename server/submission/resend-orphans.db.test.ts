import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { ksefBatchDocuments, ksefBatches } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import { jobKey } from '@/server/jobs/registry';
import type { Scope } from '@/server/db/scope';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { resendOrphans } from './resend-orphans';

const t = useTestDatabase();

/** The document's send job, its lane's prepare job when `lane` is given (a pending document's), its session's status job when `session` is. */
const jobsOf = async (id: string, lane?: Scope, session?: string) =>
  (
    await t.db().execute<{
      key: string;
    }>(sql`select key from graphile_worker.jobs where key in (${lane ? jobKey('document_prepare', lane) : ''}, ${`send:${id}`}, ${session ? `status:${session}` : ''}) order by key`)
  ).map((r) => r.key.slice(0, r.key.indexOf(':')));

test('a document on its way to KSeF without the job that moves it gets that job back; waiting ones are left alone', async () => {
  const { testScope, accountId } = await createTestAccount(t.db());
  const cases = ['lost-retry', 'lost-first', 'has-job', 'fresh', 'credentials', 'sending', 'sent', 'in-batch', 'pending'] as const;
  const id: Record<(typeof cases)[number], string> = {} as never;
  for (const c of cases) id[c] = (await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: c })))).document.id;
  await t.db().execute(sql`delete from graphile_worker._private_jobs`);
  const err = (code: string) => sql`jsonb_build_object('code', ${code}::text, 'type', 'ksef_error', 'message', 'x')`;
  const set = (doc: string, status: string, extra = sql``, old = true) =>
    t
      .db()
      .execute(
        sql`update documents set status = ${status}::document_status ${extra} ${old ? sql`, updated_at = now() - interval '2 minutes'` : sql``} where id = ${doc}`,
      );
  await set(id['lost-retry'], 'queued', sql`, last_error = ${err('ksef_unavailable')}`);
  await set(id['lost-first'], 'queued');
  await set(id['has-job'], 'queued');
  await t.db().transaction((tx) => enqueue(tx, 'ksef_send', { documentId: id['has-job'], ...testScope }, { runAt: new Date(Date.now() + 60_000) }));
  // just moved: its job may still be on the way in another transaction's commit
  await set(id.fresh, 'queued', sql``, false);
  // waiting for credentials has no send job on purpose: saving credentials wakes it
  await set(id.credentials, 'queued', sql`, last_error = ${err('ksef_not_connected')}`);
  await set(id.sending, 'sending', sql`, ksef_session_ref = 'S-1'`);
  await set(id.sent, 'sending', sql`, ksef_session_ref = 'S-1', ksef_invoice_ref = 'I-1'`);
  // held by a closed batch session: its status job decides
  await set(id['in-batch'], 'sending', sql`, ksef_session_ref = 'B-1'`);
  await t.db().insert(ksefBatches).values({ id: 'kss_test', accountId, mode: 'test', status: 'closed', referenceNumber: 'B-1', documentCount: 1 });
  await t.db().insert(ksefBatchDocuments).values({ batchId: 'kss_test', documentId: id['in-batch'], fileName: 'a.xml' });

  await t.db().execute(sql`update documents set updated_at = now() - interval '2 minutes' where id = ${id.pending}`);
  expect(await resendOrphans(t.db())).toEqual({ prepare: 1, send: 3, status: 1, batchStatus: 0, unsettledBatch: 0 });
  const after: Record<string, string[]> = {};
  for (const c of cases) after[c] = await jobsOf(id[c], c === 'pending' ? testScope : undefined, c === 'sent' ? 'S-1' : undefined);
  expect(after).toEqual({
    'lost-retry': ['send'],
    'lost-first': ['send'],
    'has-job': ['send'],
    fresh: [],
    credentials: [],
    sending: ['send'],
    sent: ['status'],
    'in-batch': [],
    pending: ['prepare'],
  });
  expect(await resendOrphans(t.db())).toEqual({ prepare: 0, send: 0, status: 0, batchStatus: 0, unsettledBatch: 0 });
});

test('a closed batch session that lost its status job gets it back; one with the job, a fresh one and a done one do not', async () => {
  const { accountId } = await createTestAccount(t.db());
  await t.db().execute(sql`delete from graphile_worker._private_jobs`);
  const batch = (id: string, status: 'closed' | 'done', minutesAgo: number) =>
    t
      .db()
      .insert(ksefBatches)
      .values({
        id,
        accountId,
        mode: 'test',
        status,
        referenceNumber: `R-${id}`,
        documentCount: 1,
        updatedAt: new Date(Date.now() - minutesAgo * 60_000),
      });
  await batch('kss_lost', 'closed', 2);
  await batch('kss_has_job', 'closed', 2);
  await batch('kss_fresh', 'closed', 0);
  await batch('kss_done', 'done', 2);
  await t.db().transaction((tx) => enqueue(tx, 'ksef_batch_status', { batchId: 'kss_has_job', poll: 4 }, { runAt: new Date(Date.now() + 30_000) }));

  expect(await resendOrphans(t.db())).toMatchObject({ batchStatus: 1 });
  const jobs = await t
    .db()
    .execute<{ key: string; poll: number }>(
      sql`select key, (payload->>'poll')::int as poll from graphile_worker._private_jobs where key like 'batch:%' order by key`,
    );
  expect(jobs).toEqual([
    { key: 'batch:kss_has_job', poll: 4 },
    { key: 'batch:kss_lost', poll: 0 },
  ]);
  expect(await resendOrphans(t.db())).toMatchObject({ batchStatus: 0 });
});

test('an unclosed batch session whose documents have no send job due within a minute gets one now, which settles it', async () => {
  const { testScope, accountId } = await createTestAccount(t.db());
  const ids: string[] = [];
  for (const c of ['b1', 'b2'])
    ids.push((await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: `unsettled-${c}` })))).document.id);
  await t.db().execute(sql`delete from graphile_worker._private_jobs`);
  await t.db().execute(sql`update documents set status = 'sending', ksef_session_ref = 'B-2', updated_at = now() - interval '5 minutes' where id in ${ids}`);
  const old = new Date(Date.now() - 5 * 60_000);
  await t
    .db()
    .insert(ksefBatches)
    .values({ id: 'kss_unsettled', accountId, mode: 'test', status: 'opened', referenceNumber: 'B-2', documentCount: 2, updatedAt: old });
  await t
    .db()
    .insert(ksefBatchDocuments)
    .values(ids.map((documentId, i) => ({ batchId: 'kss_unsettled', documentId, fileName: `${i}.xml` })));
  // the batch's one send job, put off by graphile-worker's back-off after failures in a row
  await t.db().transaction((tx) => enqueue(tx, 'ksef_send', { documentId: ids[0]!, ...testScope }, { runAt: new Date(Date.now() + 400_000) }));

  expect(await resendOrphans(t.db())).toMatchObject({ unsettledBatch: 1 });
  const due = await t
    .db()
    .execute<{ key: string }>(sql`select key from graphile_worker.jobs where run_at <= now() and key in ${ids.map((id) => `send:${id}`)}`);
  expect(due.map((r) => r.key)).toEqual([`send:${ids[0]}`]);
  expect(await resendOrphans(t.db())).toMatchObject({ unsettledBatch: 0 });
});
