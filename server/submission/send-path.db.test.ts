import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { useKsefEmulator } from '@/test/pipeline';
import { queuedDocuments } from '@/test/queued-documents';
import type { Scope } from '@/server/db/scope';
import { jobKey } from '@/server/jobs/registry';
import { sendLane } from './send-lane';

/**
 * A document waits only while both budgets are spent, and then until the earliest window that frees in either
 * (issue 31: with the batch minute full the send went interactive, found the interactive hour spent and waited
 * for it, about 49 minutes, while a batch session was free again within the minute). The throttle runs with the
 * production table; the windows are filled in its request log.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();

/** `n` requests of the limiter spread evenly over the last `seconds` (the oldest leaves its window first). */
const used = (limiter: string, n: number, seconds: number) =>
  t.db().execute(sql`
    insert into ksef_request_log (limiter, at)
    select ${limiter}, clock_timestamp() - make_interval(secs => ${seconds}::float8 * i / ${n}) from generate_series(1, ${n}) as i`);

const sendJobDueInSeconds = async (lane: Scope) =>
  (
    await t
      .db()
      .execute<{ s: number }>(sql`select extract(epoch from run_at - now())::int as s from graphile_worker.jobs where key = ${jobKey('ksef_send', lane)}`)
  )[0]?.s;

test('batch minute full and interactive hour spent: the lane waits for the batch minute, not the hour, and no document is touched', async () => {
  const { nip, scope, ids } = await queuedDocuments(t.db(), ksef, 12);
  await used(`test|${nip}|batchSession`, 20, 50);
  await used(`test|${nip}|invoiceSend`, 180, 3000);
  const before = await t.db().execute(sql`select id, updated_at from documents where id in ${ids} order by id`);
  // the job this run is: fetched, it is no longer a waiting job of the lane
  await t.db().execute(sql`select graphile_worker.remove_job(${jobKey('ksef_send', scope)})`);
  await sendLane(t.db(), scope);
  const docs = await t.db().execute<{ status: string; send_after: Date | null }>(sql`select status, send_after from documents where id in ${ids}`);
  expect(docs.every((d) => d.status === 'queued' && d.send_after === null)).toBe(true);
  expect(await t.db().execute(sql`select id, updated_at from documents where id in ${ids} order by id`)).toEqual(before);
  const due = await sendJobDueInSeconds(scope);
  expect(due).toBeGreaterThan(0);
  expect(due).toBeLessThanOrEqual(62);
});

test('a deep queue with the batch budget blocked by a Retry-After: the interactive path sends now instead of waiting', async () => {
  const { nip, scope, ids } = await queuedDocuments(t.db(), ksef, 12);
  await t.db().execute(sql`
    insert into ksef_throttle_blocks (limiter, blocked_until, rate_limited_count, last_rate_limited_at)
    values (${`test|${nip}|batchSession`}, clock_timestamp() + interval '10 minutes', 1, clock_timestamp())`);
  await sendLane(t.db(), scope);
  const [doc] = await t.db().execute<{ status: string; ref: string | null }>(sql`select status, ksef_invoice_ref as ref from documents where id = ${ids[0]!}`);
  expect(doc).toMatchObject({ status: 'sending' });
  expect(doc!.ref).toBeTruthy();
  expect((await t.db().execute(sql`select 1 from ksef_batches`)).length).toBe(0);
});
