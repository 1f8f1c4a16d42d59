import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorkerProcesses } from '@/test/pipeline';
import { expectExactlyOnce as expectOnce } from '@/test/exactly-once';
import { startTcpProxy } from '@/test/tcp-proxy';
import { stopGroup, waitFor } from '@/test/web';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';

/**
 * Real worker processes against a database that goes away: connections terminated by the server (57P01), the
 * database unreachable when a worker starts and again mid-flow, and graceful stops. Every document must end
 * accepted, numbered without gaps, its XML received by KSeF exactly once, and no worker may exit on its own.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();
const APP = 'kr-fault-worker';
const env = { WORKER_CONCURRENCY: '6', KSEF_TIMEOUT_MS: '1500', PGAPPNAME: APP, WORKER_TASKS: '-pdf_render,-mail_send,-webhook_deliver' };
const workers = useWorkerProcesses(t.url, ksef.url, env);
let proxyUrl = '';
let proxy: Awaited<ReturnType<typeof startTcpProxy>> | undefined;
const viaProxy = useWorkerProcesses(() => proxyUrl, ksef.url, env);
afterAll(() => proxy?.close());

function pauses(seed: number, n: number, min: number, spread: number): number[] {
  let a = seed;
  return Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2 ** 31;
    return min + (a % spread);
  });
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createDocuments(sellers: number, perSeller: number) {
  const created: { id: string; accountId: string }[] = [];
  for (let s = 0; s < sellers; s++) {
    const nip = randomNip();
    const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
    await ksef.connect(t.db(), acct.testScope, nip);
    for (let i = 0; i < perSeller; i++) {
      const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
      created.push({ id: document.id, accountId: acct.accountId });
    }
  }
  return created;
}

/** A document not yet accepted, with its batch session and every job that could move it (by key, any state). */
const stragglers = (ids: string[]) =>
  t.db().execute(sql`
    select d.id, d.status, d.ksef_session_ref, d.ksef_invoice_ref, extract(epoch from now() - d.updated_at)::int as idle_s,
      b.id as batch, b.status as batch_status,
      (select json_agg(json_build_object('key', j.key, 'attempts', j.attempts, 'max', j.max_attempts, 'locked_by', j.locked_by,
         'run_in_s', extract(epoch from j.run_at - now())::int, 'error', j.last_error))
       from graphile_worker._private_jobs j
       where j.key like '%:' || d.id or j.key = 'batch:' || b.id or j.key = 'status:' || d.ksef_session_ref
         or j.key = 'prepare:' || d.account_id || ':' || d.mode) as jobs
    from documents d
    left join ksef_batch_documents bd on bd.document_id = d.id
    left join ksef_batches b on b.id = bd.batch_id and b.reference_number = d.ksef_session_ref
    where d.id in ${ids} and d.status <> 'accepted' limit 5`);

async function waitAllAccepted(ids: string[], output: () => string, timeoutMs: number) {
  let summary = '';
  await waitFor(
    async () => {
      const rows = await t.db().execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from documents where id in ${ids} group by 1`);
      summary = JSON.stringify(rows);
      const done = rows.length === 1 && rows[0]!.status === 'accepted';
      // on a timeout, the last few documents' jobs tell whether a step was lost, left locked or put off
      const left = rows.filter((r) => r.status !== 'accepted').reduce((n, r) => n + r.n, 0);
      if (left > 0 && left <= 5) summary += `\n${JSON.stringify(await stragglers(ids))}`;
      return done;
    },
    timeoutMs,
    () => `${summary}\n${output().slice(-4000)}`,
  );
}

const expectExactlyOnce = (docs: { id: string }[]) =>
  expectOnce(
    t.db(),
    ksef.control(),
    docs.map((d) => d.id),
  );

const killWorkerConnections = async () =>
  (
    await t.db().execute<{ n: number }>(sql`
      select count(*)::int as n from (
        select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${APP}
      ) k`)
  )[0]!.n;

/** Locks held by ids no live heartbeat names: what a worker that stopped without releasing would leave. */
const strandedLocks = async () =>
  t.db().execute<{ locked_by: string; what: string }>(sql`
    with live as (select jsonb_array_elements_text(info->'graphileWorkerIds') as id from worker_heartbeats)
    select locked_by, what from (
      select locked_by, 'job ' || t.identifier as what from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id where locked_by is not null
      union all select holder, 'worker lock ' || key from worker_locks
    ) l where locked_by not in (select id from live)`);

test('the server terminates the connections of two running workers 15 times while 150 documents flow', async () => {
  await ksef.control().setProcessingDelay(30);
  const docs = await createDocuments(3, 50);
  const a = workers.start();
  const b = workers.start();
  await waitFor(
    async () => a.output().includes('worker: running') && b.output().includes('worker: running'),
    30_000,
    () => a.output() + b.output(),
  );
  let killed = 0;
  for (const pause of pauses(57, 15, 200, 900)) {
    await sleep(pause);
    killed += await killWorkerConnections();
  }
  await waitAllAccepted(
    docs.map((d) => d.id),
    () => a.output() + b.output(),
    400_000,
  );
  await expectExactlyOnce(docs);
  // a worker that died shows why: its fatal lines and the tail of its output
  const why = () =>
    [a, b]
      .map(
        (w) =>
          `${
            w
              .output()
              .match(/^.*(fatal|uncaught|exit).*$/gim)
              ?.join('\n') ?? ''
          }\n${w.output().slice(-3000)}`,
      )
      .join('\n---\n');
  expect([a.proc.exitCode, a.proc.signalCode, b.proc.exitCode, b.proc.signalCode], why()).toEqual([null, null, null, null]);
  const replaced = (a.output() + b.output()).match(/replacing the job runner/g)?.length ?? 0;
  const writeAfterClose = (a.output() + b.output()).match(/wrote to a closed connection/g)?.length ?? 0;
  console.log(
    `db kills: ${killed} connections terminated in 15 rounds, ${replaced} runner replacements, ${writeAfterClose} postgres.js writes after close survived`,
  );
  expect(killed).toBeGreaterThan(15);
  await Promise.all([stopGroup(a.proc), stopGroup(b.proc)]);
}, 480_000);

test('a worker started while the database is down waits, connects, and survives the database going away mid-flow', async () => {
  const target = new URL(t.url());
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, { up: false });
  const u = new URL(t.url());
  u.host = `127.0.0.1:${proxy.port}`;
  proxyUrl = u.toString();
  const docs = await createDocuments(2, 40);
  const w = viaProxy.start();
  await waitFor(async () => /cannot start the job runner \(attempt 3\)/.test(w.output()), 30_000, w.output);
  expect(w.proc.exitCode).toBeNull();
  proxy.up();
  await waitFor(async () => w.output().includes('worker: running'), 30_000, w.output);
  // two outages while documents flow: a short one (restart) and one of 8 s (a stop)
  for (const outage of [1_000, 8_000]) {
    await waitFor(
      async () =>
        (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from documents where id in ${docs.map((d) => d.id)} and status = 'accepted'`))[0]!
          .n > 0,
      60_000,
      w.output,
    );
    await sleep(300);
    proxy.down();
    await sleep(outage);
    expect(w.proc.exitCode).toBeNull();
    proxy.up();
  }
  await waitAllAccepted(
    docs.map((d) => d.id),
    w.output,
    400_000,
  );
  await expectExactlyOnce(docs);
  expect(w.proc.exitCode).toBeNull();
  await stopGroup(w.proc);
}, 480_000);

test('SIGTERM mid-flow: the stopping worker releases every job and worker lock it held; the others finish everything', async () => {
  const docs = await createDocuments(4, 30);
  // a slow KSeF keeps sends in flight at the moment of each stop
  await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'latency', latencyMs: 400, probability: 0.5 }], 3);
  const survivor = workers.start();
  let stopped = 0;
  for (const pause of pauses(11, 4, 500, 1_500)) {
    const w = workers.start();
    await waitFor(async () => w.output().includes('worker: running'), 30_000, w.output);
    await sleep(pause);
    const ids = await t
      .db()
      .execute<{ id: string }>(
        sql`select jsonb_array_elements_text(info->'graphileWorkerIds') as id from worker_heartbeats where worker_id like ${`%:${w.proc.pid}:%`}`,
      );
    const t0 = Date.now();
    // a graceful stop waits for its running steps (a batch upload among them) up to the shutdown time-out, 25 s;
    // on a loaded machine that is more than stopGroup's usual 5 s before SIGKILL
    await stopGroup(w.proc, 'SIGTERM', 30_000);
    console.log(`sigterm: stop took ${Date.now() - t0} ms`);
    expect(w.output()).toContain('worker: stopped');
    const held = await t.db().execute<{ n: number }>(sql`
      select count(*)::int as n from (
        select locked_by from graphile_worker._private_jobs union all select holder from worker_locks
      ) l where locked_by in ${ids.length ? ids.map((r) => r.id) : ['-']}`);
    expect(held[0]!.n).toBe(0);
    expect({ stranded: await strandedLocks(), beats: await t.db().execute(sql`select worker_id, info from worker_heartbeats`) }).toMatchObject({
      stranded: [],
    });
    stopped++;
  }
  await ksef.control().clearFaults();
  await waitAllAccepted(
    docs.map((d) => d.id),
    survivor.output,
    400_000,
  );
  await expectExactlyOnce(docs);
  console.log(`sigterm: ${stopped} workers stopped mid-flow, each left 0 locks`);
  await stopGroup(survivor.proc);
}, 480_000);
