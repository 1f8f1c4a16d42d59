import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { enqueue } from '@/server/jobs/enqueue';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { resendOrphans } from './resend-orphans';

const t = useTestDatabase();

const sendJobs = async (id: string) =>
  (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where key = ${`send:${id}`}`))[0]!.n;

test('a queued ksef_unavailable document without its send job gets one back; the others are left alone', async () => {
  const { testScope } = await createTestAccount(t.db());
  const ids: string[] = [];
  for (const externalId of ['lost', 'has-job', 'fresh', 'credentials']) {
    ids.push((await createInvoiceDocument(t.db(), testScope, parseOrderInput(paidOrder({ external_id: externalId })))).document.id);
  }
  const [lost, hasJob, fresh, credentials] = ids as [string, string, string, string];
  await t.db().execute(sql`delete from graphile_worker._private_jobs`);
  const unavailable = sql`jsonb_build_object('code', 'ksef_unavailable', 'type', 'ksef_error', 'message', 'KSeF did not answer')`;
  const aMinuteAgo = sql`now() - interval '2 minutes'`;
  await t.db().execute(sql`update documents set status = 'queued', last_error = ${unavailable}, updated_at = ${aMinuteAgo} where id in (${lost}, ${hasJob})`);
  await t.db().transaction((tx) => enqueue(tx, 'ksef_send', { documentId: hasJob, ...testScope }, { runAt: new Date(Date.now() + 60_000) }));
  // just requeued: its job may still be on the way in another transaction's commit
  await t.db().execute(sql`update documents set status = 'queued', last_error = ${unavailable} where id = ${fresh}`);
  // waiting for credentials has no send job on purpose: saving credentials wakes it
  await t
    .db()
    .execute(
      sql`update documents set status = 'queued', last_error = jsonb_build_object('code', 'ksef_not_connected', 'type', 'ksef_error', 'message', 'x'), updated_at = ${aMinuteAgo} where id = ${credentials}`,
    );

  expect(await resendOrphans(t.db())).toBe(1);
  expect([await sendJobs(lost), await sendJobs(hasJob), await sendJobs(fresh), await sendJobs(credentials)]).toEqual([1, 1, 0, 0]);
  expect(await resendOrphans(t.db())).toBe(0);
});
