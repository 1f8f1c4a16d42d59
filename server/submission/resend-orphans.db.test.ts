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

/** The lane's send job and its due time in seconds from now; its prepare job; a session's status job. */
const laneJobs = async (lane: Scope) =>
  (
    await t.db().execute<{ key: string; s: number }>(
      sql`select key, round(extract(epoch from run_at - now()))::int as s from graphile_worker.jobs
        where key in (${jobKey('ksef_send', lane)}, ${jobKey('document_prepare', lane)}) order by key`,
    )
  ).map((r) => `${r.key.slice(0, r.key.indexOf(':'))}@${r.s > 0 ? Math.round(r.s / 60) + 'min' : 'now'}`);
const statusJobs = async (session: string) => (await t.db().execute(sql`select 1 from graphile_worker.jobs where key = ${`status:${session}`}`)).length;

test('a lane whose send job was deleted gets it back, at its earliest due document; waiting documents and lanes with a job are left alone', async () => {
  const lanes = {
    lost: await createTestAccount(t.db()),
    backoff: await createTestAccount(t.db()),
    hasJob: await createTestAccount(t.db()),
    fresh: await createTestAccount(t.db()),
    credentials: await createTestAccount(t.db()),
    batch: await createTestAccount(t.db()),
  };
  const doc = async (lane: keyof typeof lanes, name: string) =>
    (await createInvoiceDocument(t.db(), lanes[lane].testScope, parseOrderInput(paidOrder({ external_id: name })))).document.id;
  const id = {
    lostRetry: await doc('lost', 'lost-retry'),
    lostFirst: await doc('lost', 'lost-first'),
    sending: await doc('lost', 'sending'),
    sent: await doc('lost', 'sent'),
    pending: await doc('lost', 'pending'),
    backoff: await doc('backoff', 'backoff'),
    hasJob: await doc('hasJob', 'has-job'),
    fresh: await doc('fresh', 'fresh'),
    credentials: await doc('credentials', 'credentials'),
    inBatch: await doc('batch', 'in-batch'),
  };
  await t.db().execute(sql`delete from graphile_worker._private_jobs`);
  const err = (code: string) => sql`jsonb_build_object('code', ${code}::text, 'type', 'ksef_error', 'message', 'x')`;
  const set = (doc: string, status: string, extra = sql``, old = true) =>
    t
      .db()
      .execute(
        sql`update documents set status = ${status}::document_status ${extra} ${old ? sql`, updated_at = now() - interval '2 minutes'` : sql``} where id = ${doc}`,
      );
  await set(id.lostRetry, 'queued', sql`, last_error = ${err('ksef_unavailable')}, send_after = now() + interval '10 minutes'`);
  await set(id.lostFirst, 'queued');
  await set(id.sending, 'sending', sql`, ksef_session_ref = 'S-1'`);
  await set(id.sent, 'sending', sql`, ksef_session_ref = 'S-1', ksef_invoice_ref = 'I-1'`);
  await set(id.pending, 'pending');
  // the lane's only document is in its back-off: the lane's job comes back for its end
  await set(id.backoff, 'queued', sql`, last_error = ${err('ksef_unavailable')}, send_after = now() + interval '5 minutes'`);
  await set(id.hasJob, 'queued');
  await t.db().transaction((tx) => enqueue(tx, 'ksef_send', lanes.hasJob.testScope, { runAt: new Date(Date.now() + 120_000) }));
  // just moved: its job may still be on the way in another transaction's commit
  await set(id.fresh, 'queued', sql``, false);
  // waiting for credentials has no send job on purpose: saving credentials wakes it
  await set(id.credentials, 'queued', sql`, last_error = ${err('ksef_not_connected')}`);
  // held by a closed batch session: its status job decides
  await set(id.inBatch, 'sending', sql`, ksef_session_ref = 'B-1'`);
  await t
    .db()
    .insert(ksefBatches)
    .values({ id: 'kss_test', accountId: lanes.batch.accountId, mode: 'test', status: 'closed', referenceNumber: 'B-1', documentCount: 1 });
  await t.db().insert(ksefBatchDocuments).values({ batchId: 'kss_test', documentId: id.inBatch, fileName: 'a.xml' });

  expect(await resendOrphans(t.db())).toEqual({ prepare: 1, send: 4, status: 1, batchStatus: 0, unsettledBatch: 0 });
  const after: Record<string, string[]> = {};
  for (const [name, acct] of Object.entries(lanes)) after[name] = await laneJobs(acct.testScope);
  expect(after).toEqual({
    lost: ['prepare@now', 'send@now'],
    backoff: ['send@5min'],
    hasJob: ['send@2min'],
    fresh: [],
    credentials: [],
    batch: [],
  });
  expect(await statusJobs('S-1')).toBe(1);
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

test('an unclosed batch session whose lane has no send job due within a minute gets one now, which settles it', async () => {
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
  // the lane's send job, put off by graphile-worker's back-off after failures in a row
  await t.db().transaction((tx) => enqueue(tx, 'ksef_send', testScope, { runAt: new Date(Date.now() + 400_000) }));

  expect(await resendOrphans(t.db())).toMatchObject({ unsettledBatch: 1 });
  const due = await t.db().execute(sql`select 1 from graphile_worker.jobs where run_at <= now() and key = ${jobKey('ksef_send', testScope)}`);
  expect(due.length).toBe(1);
  expect(await resendOrphans(t.db())).toMatchObject({ unsettledBatch: 0 });
});
