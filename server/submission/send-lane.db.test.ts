import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import type { Scope } from '@/server/db/scope';
import { jobKey } from '@/server/jobs/registry';
import { useTestDatabase } from '@/test/db';
import { expectExactlyOnce } from '@/test/exactly-once';
import { useKsefEmulator } from '@/test/pipeline';
import { queuedDocuments } from '@/test/queued-documents';
import { sendLane } from './send-lane';

/** The lane's send step (DESIGN pipeline) run by hand against the KSeF emulator over HTTP; no worker. */
const t = useTestDatabase();
const ksef = useKsefEmulator();

const sendJobs = async (lane: Scope) =>
  t
    .db()
    .execute<{ s: number }>(
      sql`select round(extract(epoch from run_at - now()))::int as s from graphile_worker._private_jobs where key = ${jobKey('ksef_send', lane)}`,
    );

/** The lane's send step as its job runs it: fetched, the job is no longer a waiting job of the lane. */
async function runLane(lane: Scope) {
  await t.db().execute(sql`select graphile_worker.remove_job(${jobKey('ksef_send', lane)})`);
  await sendLane(t.db(), lane);
}

const sessionsOpened = async () => (await ksef.control().counters()).requests.openOnlineSession ?? 0;

test("a lane's queued documents go in one run, in one online session: one send job row for the burst, none left after", async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 6);
  // six documents numbered one by one, one waiting send job
  expect(await sendJobs(scope)).toHaveLength(1);
  const opened = await sessionsOpened();
  await runLane(scope);
  const docs = await t
    .db()
    .execute<{ status: string; session: string; ref: string | null }>(
      sql`select status, ksef_session_ref as session, ksef_invoice_ref as ref from documents where id in ${ids}`,
    );
  expect(docs.every((d) => d.status === 'sending' && d.ref)).toBe(true);
  expect(new Set(docs.map((d) => d.session)).size).toBe(1);
  expect((await sessionsOpened()) - opened).toBe(1);
  expect(await sendJobs(scope)).toHaveLength(0);
  const status = await t.db().execute(sql`select 1 from graphile_worker._private_jobs where key = ${`status:${docs[0]!.session}`}`);
  expect(status).toHaveLength(1);
  await expectExactlyOnce(t.db(), ksef.control(), ids);
});

test('a document in its back-off is not sent before its time, while the others of its lane are; the lane job comes back for it', async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 3);
  await t.db().execute(sql`update documents set send_after = now() + interval '10 minutes' where id = ${ids[0]!}`);
  await runLane(scope);
  const docs = await t
    .db()
    .execute<{ id: string; status: string; ref: string | null }>(
      sql`select id, status, ksef_invoice_ref as ref from documents where id in ${ids} order by seq`,
    );
  expect(docs.map((d) => [d.status, Boolean(d.ref)])).toEqual([
    ['queued', false],
    ['sending', true],
    ['sending', true],
  ]);
  const [job] = await sendJobs(scope);
  expect(job!.s).toBeGreaterThan(590);
  expect(job!.s).toBeLessThanOrEqual(600);

  // its time has come: the lane's next run sends it
  await t.db().execute(sql`update documents set send_after = now() - interval '1 second' where id = ${ids[0]!}`);
  await runLane(scope);
  const [first] = await t.db().execute<{ ref: string | null }>(sql`select ksef_invoice_ref as ref from documents where id = ${ids[0]!}`);
  expect(first!.ref).toBeTruthy();
});

test('KSeF down on the upload: the run stops, its documents wait in back-off with "did not answer", and the lane job waits for them', async () => {
  const { scope, ids } = await queuedDocuments(t.db(), ksef, 3);
  await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'error5xx', times: 1 }]);
  try {
    await runLane(scope);
  } finally {
    await ksef.control().clearFaults();
  }
  const docs = await t
    .db()
    .execute<{ status: string; message: string; attempts: number; wait: number }>(
      sql`select status, last_error->>'message' as message, attempts, extract(epoch from send_after - now())::float8 as wait from documents where id in ${ids}`,
    );
  // the one KSeF failed counts an attempt; the others, not tried, wait as long without one
  expect(docs.map((d) => d.attempts).sort()).toEqual([0, 0, 1]);
  for (const d of docs) {
    expect(d.status).toBe('queued');
    expect(d.message).toMatch(/^KSeF did not answer \(/);
    expect(d.wait).toBeGreaterThan(0);
  }
  expect(new Set(docs.map((d) => Math.round(d.wait))).size).toBe(1);
  const [job] = await sendJobs(scope);
  expect(job!.s).toBeGreaterThan(0);
  // an outage starts each document's offline clock once
  const clocks = await t.db().execute(sql`select 1 from graphile_worker._private_jobs where key in ${ids.map((id) => `offline:${id}`)}`);
  expect(clocks).toHaveLength(3);
});
