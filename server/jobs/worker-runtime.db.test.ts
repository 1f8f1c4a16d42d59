import { afterAll, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Task, WorkerEvents } from 'graphile-worker';
import { enqueue } from '@/server/jobs/enqueue';
import { useTestDatabase } from '@/test/db';
import { waitFor } from '@/test/web';
import { trackExecution } from './in-flight';
import { withQueueSettings } from './graphile-connection';
import { startWorkerRuntime, type WorkerRuntime } from './worker-runtime';

const t = useTestDatabase();
const runtimes: WorkerRuntime[] = [];
afterAll(async () => {
  for (const r of runtimes) await r.stop();
});

/** A worker runtime of one task that counts its looks for jobs and the jobs it ran. */
function startCounting(name: string, task: 'pdf_render' | 'mail_send', wakeOnNewJobs: boolean) {
  const counts = { looks: 0, ran: 0 };
  const handler: Task = async () => {
    counts.ran++;
  };
  const runtime = startWorkerRuntime({
    db: t.db(),
    connectionString: t.url(),
    taskList: { [task]: handler },
    concurrency: 1,
    // nothing is found by polling during the test: every look is the start's, or a notification's
    pollInterval: 600_000,
    wakeOnNewJobs,
    processId: `test:${name}`,
    heartbeatMs: 60_000,
    shutdownTimeoutMs: 5_000,
    log: () => {},
    warn: () => {},
    error: () => {},
    observe: (events: WorkerEvents) => events.on('worker:getJob:start', () => counts.looks++),
  });
  runtimes.push(runtime);
  return counts;
}

test('a worker with wakeOnNewJobs off does not look for jobs when others add theirs; one with it on does', async () => {
  const polling = startCounting('polling', 'pdf_render', false);
  const listening = startCounting('listening', 'pdf_render', true);
  const mail = startCounting('mail', 'mail_send', true);
  await waitFor(
    async () => polling.looks === 1 && listening.looks === 1 && mail.looks === 1,
    20_000,
    () => JSON.stringify({ polling, listening, mail }),
  );

  for (let i = 0; i < 5; i++) await t.db().transaction((tx) => enqueue(tx, 'mail_send', { accountId: `acct_wake${i}`, mode: 'test' }));
  await waitFor(
    async () => mail.ran === 5 && listening.looks > 1,
    20_000,
    () => JSON.stringify({ polling, listening, mail }),
  );
  expect(polling.looks).toBe(1);
  expect(polling.ran + listening.ran).toBe(0);
});

test('withQueueSettings keeps the connection options already in the URL', () => {
  expect(new URL(withQueueSettings('postgres://u@h:5432/d?options=-c%20statement_timeout%3D5s')).searchParams.get('options')).toBe(
    '-c statement_timeout=5s -c enable_seqscan=off -c jit=off -c synchronous_commit=off',
  );
});

test.each([
  [true, 'off off off'],
  [false, 'on on on'],
])("graphile-worker's connections with plannerOptions %s: enable_seqscan, jit and synchronous_commit are %s", async (plannerOptions, expected) => {
  const seen: string[] = [];
  const task: Task = async (_payload, helpers) => {
    const res = await helpers.withPgClient((client) =>
      client.query<{ s: string; j: string; c: string }>(
        "select current_setting('enable_seqscan') as s, current_setting('jit') as j, current_setting('synchronous_commit') as c",
      ),
    );
    seen.push(`${res.rows[0]?.s} ${res.rows[0]?.j} ${res.rows[0]?.c}`);
  };
  const runtime = startWorkerRuntime({
    db: t.db(),
    connectionString: t.url(),
    taskList: { store_sync: task },
    concurrency: 1,
    pollInterval: 100,
    plannerOptions,
    processId: `test:planner-${plannerOptions}`,
    heartbeatMs: 60_000,
    shutdownTimeoutMs: 5_000,
    log: () => {},
    warn: () => {},
    error: () => {},
  });
  try {
    await t.db().transaction((tx) => enqueue(tx, 'store_sync', { storeId: `planner-${plannerOptions}` }));
    await waitFor(
      async () => seen.length === 1,
      20_000,
      () => JSON.stringify(seen),
    );
  } finally {
    await runtime.stop();
  }
  expect(seen).toEqual([expected]);
});

test('a job that does not settle is named once in the warnings, with its task and age', async () => {
  const warnings: string[] = [];
  let release!: () => void;
  const settled = new Promise<void>((r) => (release = r));
  const runtime = startWorkerRuntime({
    db: t.db(),
    connectionString: t.url(),
    taskList: { maintenance: (_payload, helpers) => trackExecution(helpers.job, () => settled) },
    concurrency: 1,
    pollInterval: 100,
    processId: 'test:overdue',
    heartbeatMs: 50,
    overdueJobMs: 300,
    shutdownTimeoutMs: 5_000,
    log: () => {},
    warn: (line) => warnings.push(line),
    error: () => {},
  });
  try {
    await t.db().transaction((tx) => enqueue(tx, 'maintenance', {}));
    await waitFor(
      async () => warnings.length > 0,
      20_000,
      () => JSON.stringify(warnings),
    );
    // many heartbeats later the same job is not named again
    await new Promise((r) => setTimeout(r, 500));
    expect(warnings).toEqual([expect.stringMatching(/^worker: job \d+ \(maintenance\) has been running for \d+ s$/)]);
  } finally {
    release();
    await runtime.stop();
  }
});

test('a new runner locks no job before a committed heartbeat names the id it locks under', async () => {
  // jobs waiting before the runner starts: its very first fetch takes them
  for (let i = 0; i < 3; i++) await t.db().transaction((tx) => enqueue(tx, 'store_writeback', { documentId: `inv_named${i}` }));
  const seen: { lockedBy: string | null; named: boolean }[] = [];
  const handler: Task = async (_payload, helpers) => {
    const lockedBy = helpers.job.locked_by;
    const [row] = await t
      .db()
      .execute<{ named: boolean }>(sql`select exists (select 1 from worker_heartbeats where info->'graphileWorkerIds' ? ${lockedBy}) as named`);
    seen.push({ lockedBy, named: row!.named });
  };
  runtimes.push(
    startWorkerRuntime({
      db: t.db(),
      connectionString: t.url(),
      taskList: { store_writeback: handler },
      concurrency: 3,
      pollInterval: 100,
      processId: 'test:named',
      // no beat on the timer within the test: only the fetch's own wait for a beat can name the id
      heartbeatMs: 600_000,
      shutdownTimeoutMs: 5_000,
      log: () => {},
      warn: () => {},
      error: () => {},
    }),
  );
  await waitFor(
    async () => seen.length === 3,
    20_000,
    () => JSON.stringify(seen),
  );
  expect(seen.every((s) => s.named && s.lockedBy)).toBe(true);
});
