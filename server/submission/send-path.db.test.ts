import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { useKsefEmulator } from '@/test/pipeline';
import { queuedDocuments } from '@/test/queued-documents';
import { sendDocument } from './send-document';

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

const sendJobDueInSeconds = async (id: string) =>
  (await t.db().execute<{ s: number }>(sql`select extract(epoch from run_at - now())::int as s from graphile_worker.jobs where key = ${`send:${id}`}`))[0]?.s;

test('batch minute full and interactive hour spent: the document waits for the batch minute, not the hour', async () => {
  const { nip, ids } = await queuedDocuments(t.db(), ksef, 12);
  await used(`test|${nip}|batchSession`, 20, 50);
  await used(`test|${nip}|invoiceSend`, 180, 3000);
  await sendDocument(t.db(), ids[0]!);
  const [doc] = await t.db().execute<{ status: string }>(sql`select status from documents where id = ${ids[0]!}`);
  expect(doc!.status).toBe('queued');
  const due = await sendJobDueInSeconds(ids[0]!);
  expect(due).toBeGreaterThan(0);
  expect(due).toBeLessThanOrEqual(62);
});

test('a deep queue with the batch budget blocked by a Retry-After: the interactive path sends now instead of waiting', async () => {
  const { nip, ids } = await queuedDocuments(t.db(), ksef, 12);
  await t.db().execute(sql`
    insert into ksef_throttle_blocks (limiter, blocked_until, rate_limited_count, last_rate_limited_at)
    values (${`test|${nip}|batchSession`}, clock_timestamp() + interval '10 minutes', 1, clock_timestamp())`);
  await sendDocument(t.db(), ids[0]!);
  const [doc] = await t.db().execute<{ status: string; ref: string | null }>(sql`select status, ksef_invoice_ref as ref from documents where id = ${ids[0]!}`);
  expect(doc).toMatchObject({ status: 'sending' });
  expect(doc!.ref).toBeTruthy();
  expect((await t.db().execute(sql`select 1 from ksef_batches`)).length).toBe(0);
});
