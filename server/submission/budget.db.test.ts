import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { Logger, run, type Runner, type WorkerEvents } from 'graphile-worker';
import { afterAll, expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { createBurst, findLimitBreaches } from '@/test/fixtures/burst';
import { createTaskList, selectTasks } from '@/worker/task-list';
import { busyLockFlags } from '@/server/jobs/worker-locks';

/**
 * A seller whose hourly budgets are spent (issue 18.3), production limits on the emulator and in the throttle:
 * the documents wait for the window instead of spinning. While the window is closed no batch row is written, no
 * document is touched and the lane's one send job runs about once, waiting in its run_at; when it frees, one batch
 * session takes the queue.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator({ limits: 'prod' });
let runner: Runner | undefined;
afterAll(() => runner?.stop());

const count = async (query: ReturnType<typeof sql>) => (await t.db().execute<{ n: number }>(query))[0]!.n;

test("batchSession and invoiceSend hours spent: 150 documents wait in their lane job's run_at, no batch rows, no spinning; then one batch takes them", async () => {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  // the hour's 60 batch sessions and 180 interactive sends were used over the last hour, within every per-second
  // and per-minute limit; the oldest two of each leave the hour window in ~20 s
  const freesInSeconds = 20;
  const span = 3600 - freesInSeconds - 100;
  for (const [group, n] of [
    ['batchSession', 60],
    ['invoiceSend', 180],
  ] as const) {
    await t.db().execute(sql`
      insert into ksef_request_log (limiter, at)
      select ${`test|${nip}|${group}`}, clock_timestamp() - make_interval(secs => ${3600 - freesInSeconds})
        + make_interval(secs => case when i = 1 then 0 when i = 2 then 0.5 else ${span}::float8 * (i - 2) / ${n - 2} end)
      from generate_series(1, ${n}) as i`);
  }
  const ids = await createBurst(t.db(), acct.testScope, 150);

  let sendRuns = 0;
  const events: WorkerEvents = new EventEmitter();
  events.on('job:start', ({ job }) => {
    if (job.task_identifier === 'ksef_send') sendRuns++;
  });
  runner = await run({
    connectionString: t.url(),
    taskList: selectTasks(createTaskList(t.db()), '-pdf_render,-mail_send,-webhook_deliver'),
    forbiddenFlags: busyLockFlags(t.db()),
    concurrency: 4,
    pollInterval: 100,
    noHandleSignals: true,
    logger: new Logger(() => () => {}),
    events,
  });
  const started = Date.now();
  // while the windows are closed
  await new Promise((r) => setTimeout(r, (freesInSeconds - 6) * 1000));
  const duringWait = {
    sendRuns,
    batches: await count(sql`select count(*)::int as n from ksef_batches`),
    transitions: await count(sql`select count(*)::int as n from document_transitions where document_id in ${ids}`),
    waiting: await count(sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'ksef_send' and run_at > now()`),
  };
  expect(duringWait.batches).toBe(0);
  // the lane's runs: one per numbering transaction that found the lane's job fetched, then one that waits
  expect(duringWait.sendRuns).toBeLessThanOrEqual(5);
  expect(duringWait.waiting).toBe(1);
  // numbered and queued, nothing else: no document moved to sending and back
  expect(duringWait.transitions).toBe(2 * ids.length);
  let summary = '';
  await waitFor(
    async () => {
      const rows = await t.db().execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from documents where id in ${ids} group by 1`);
      summary = JSON.stringify(rows);
      return rows.length === 1 && rows[0]!.status === 'accepted';
    },
    120_000,
    () => summary,
  );
  const after = {
    seconds: Math.round((Date.now() - started) / 1000),
    sendRuns,
    batches: await count(sql`select count(*)::int as n from ksef_batches`),
    abandoned: await count(sql`select count(*)::int as n from ksef_batches where status = 'abandoned'`),
  };
  console.log(`budget: during the ${freesInSeconds} s wait ${JSON.stringify(duringWait)}; all 150 accepted after ${JSON.stringify(after)}`);
  expect(after.abandoned).toBe(0);
  expect(after.batches).toBeLessThanOrEqual(2);
  expect(after.sendRuns).toBeLessThanOrEqual(10);
  expect((await ksef.control().counters()).rateLimited).toBe(0);
  expect(await findLimitBreaches(t.db())).toEqual([]);
}, 180_000);
