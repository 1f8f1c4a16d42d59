/**
 * Webhook fan-out: events recorded through recordEvent, delivered by the webhook_deliver task in a separate
 * worker process to 3 endpoints on a local receiver process that verifies every signature.
 * Phase 1 (throughput): all events are recorded first, then the worker drains the 3×N jobs: deliveries/s.
 * Phase 2 (latency): the worker runs while events are recorded at a steady rate: event-to-delivery latency,
 * from the event's created_at to the receiver reading the request.
 * Run: DATABASE_URL=postgres://… npx tsx bench/webhooks.ts [events=10000] [events_per_second=200] [concurrency=WORKER_CONCURRENCY or 8] [batch]
 * The worker uses worker/main.ts's options; `batch` adds graphile-worker's local queue and batched completion
 * (not enabled in worker/main.ts) to compare.
 * Goal (issue 8): at least 500 deliveries/s, p99 latency at most 1 s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { inArray, sql } from 'drizzle-orm';
import { Logger, run } from 'graphile-worker';
import postgres from 'postgres';
import { verifyWebhookSignature } from '@/sdk/src/index';
import { createAccount } from '@/server/accounts/create-account';
import { createDb, type Db } from '@/server/db/client';
import { events } from '@/server/db/schema';
import { migrateDatabase } from '@/server/db/migrate';
import type { Scope } from '@/server/db/scope';
import type { DocumentRow } from '@/server/documents/document-row';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { recordDocumentEvent as recordEvent } from '@/server/documents/record-document-event';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';

const ENDPOINTS = 3;
const DOCUMENTS = 100;
const self = fileURLToPath(import.meta.url);

type Received = { eventId: string; path: string; at: number };
type ReceiverMessage = { kind: 'ready'; url: string } | { kind: 'count'; n: number; bad: number } | { kind: 'samples'; samples: Received[] };

/** Child: the receiver. Answers 200 after checking the signature; reports counts and, at the end, every receipt. */
function runReceiver(secrets: Record<string, string>) {
  const samples: Received[] = [];
  let bad = 0;
  const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const path = req.url ?? '';
      const ok = verifyWebhookSignature(Buffer.concat(chunks), String(req.headers['ksef-signature']), secrets[path] ?? '');
      if (!ok) bad++;
      samples.push({ eventId: String(req.headers['ksef-event-id']), path, at });
      res.writeHead(ok ? 200 : 400).end();
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.send!({ kind: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` } satisfies ReceiverMessage),
  );
  process.on('message', (m: { kind: string }) => {
    if (m.kind === 'count') process.send!({ kind: 'count', n: samples.length, bad } satisfies ReceiverMessage);
    if (m.kind === 'samples') process.send!({ kind: 'samples', samples: samples.splice(0) } satisfies ReceiverMessage);
  });
}

/** Child: a worker process with the production options of worker/main.ts and only the task under test. */
async function runWorker(concurrency: number, batch: boolean) {
  const { createTaskList, selectTasks } = await import('@/worker/task-list');
  const db = createDb(process.env.DATABASE_URL!);
  await run({
    connectionString: process.env.DATABASE_URL!,
    concurrency,
    taskList: selectTasks(createTaskList(db), 'webhook_deliver'),
    noHandleSignals: true,
    pollInterval: 1_000,
    logger: new Logger(() => () => {}),
    ...(batch && { preset: { worker: { localQueue: { size: concurrency * 4 }, completeJobBatchDelay: 0 } } }),
  });
  process.on('message', (m: { kind: string }) => {
    if (m.kind === 'cpu') process.send!({ kind: 'cpu', ...process.cpuUsage() });
  });
  process.send!({ kind: 'ready' });
}

function child(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', self, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

const nextMessage = <T>(proc: ChildProcess, kind: string) =>
  new Promise<T>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`child exited with ${code}`));
    const onMessage = (m: { kind: string }) => {
      if (m.kind !== kind) return;
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      resolve(m as T);
    };
    proc.on('message', onMessage);
    proc.once('exit', onExit);
  });

async function stop(proc: ChildProcess) {
  if (proc.exitCode !== null) return;
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGKILL');
  await exited;
}

function order(i: number) {
  return parseOrderInput({
    external_id: `bench-${i}`,
    number: String(i),
    paid_at: '2026-11-20T10:05:00Z',
    currency: 'PLN',
    buyer: { nip: '5260250274', name: 'Kupiec sp. z o.o.', address_line1: 'ul. Długa 5', address_line2: '00-002 Warszawa' },
    lines: [{ name: 'Kubek', quantity: 2, unit_price: '49.99', vat_rate: '23' }],
  });
}

async function recordEvents(db: Db, docs: DocumentRow[], count: number, perSecond: number | null): Promise<string[]> {
  const ids: string[] = [];
  const started = performance.now();
  // Eight producers, like several worker tasks reaching final states at once.
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        if (perSecond !== null) {
          const due = started + (i * 1000) / perSecond;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
        ids.push(await db.transaction((tx) => recordEvent(tx, docs[i % docs.length]!, 'invoice.accepted', [])));
      }
    }),
  );
  return ids;
}

async function waitForDeliveries(receiver: ChildProcess, expected: number, timeoutMs: number): Promise<{ n: number; bad: number }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    receiver.send({ kind: 'count' });
    const c = await nextMessage<{ n: number; bad: number }>(receiver, 'count');
    if (c.n >= expected || Date.now() > until) return c;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function main() {
  const total = Number(process.argv[2] ?? 10_000);
  const perSecond = Number(process.argv[3] ?? 200);
  const concurrency = Number(process.argv[4] ?? process.env.WORKER_CONCURRENCY ?? 8);
  const batch = process.argv[5] === 'batch';
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('set DATABASE_URL to a PostgreSQL server (a scratch database is created and dropped)');
  process.env.APP_SECRET ??= randomBytes(24).toString('hex');
  const name = `kr_bench_webhooks_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const procs: ChildProcess[] = [];
  const db = createDb(dbUrl, { max: 10 });
  try {
    await migrateDatabase(dbUrl);
    const acct = await createAccount(db, { email: `${name}@example.test` });
    const scope: Scope = { accountId: acct.accountId, mode: 'test' };

    const secrets: Record<string, string> = {};
    const receiver = child(['--receiver'], {});
    procs.push(receiver);
    const { url: receiverUrl } = await nextMessage<{ url: string }>(receiver, 'ready');
    for (let i = 0; i < ENDPOINTS; i++) {
      const ep = await createWebhookEndpoint(db, scope, { url: `${receiverUrl}/e${i}`, enabled_events: ['*'] });
      secrets[`/e${i}`] = ep.secret;
    }
    receiver.send({ kind: 'secrets', secrets });
    const docs: DocumentRow[] = [];
    for (let i = 0; i < DOCUMENTS; i++) docs.push((await createInvoiceDocument(db, scope, order(i))).document);
    // The documents' own document_prepare jobs are not part of this benchmark.
    await db.execute(
      sql`delete from graphile_worker._private_jobs where task_id = (select id from graphile_worker._private_tasks where identifier = 'document_prepare')`,
    );

    console.log(
      `webhooks bench: ${total} events × ${ENDPOINTS} endpoints, worker concurrency ${concurrency}${batch ? ' with local queue and batched completion' : ''}, ${process.arch} ${process.version}`,
    );

    // Phase 1: throughput of draining a backlog.
    let t0 = performance.now();
    await recordEvents(db, docs, total, null);
    const recordS = (performance.now() - t0) / 1000;
    const worker = child(['--worker', String(concurrency), batch ? 'batch' : ''], { DATABASE_URL: dbUrl });
    procs.push(worker);
    await nextMessage(worker, 'ready');
    t0 = performance.now();
    const drained = await waitForDeliveries(receiver, total * ENDPOINTS, 600_000);
    const drainS = (performance.now() - t0) / 1000;
    worker.send({ kind: 'cpu' });
    const cpu = await nextMessage<{ user: number; system: number }>(worker, 'cpu');
    receiver.send({ kind: 'samples' });
    await nextMessage(receiver, 'samples');
    console.log(`recorded ${total} events in ${recordS.toFixed(1)} s (${Math.round(total / recordS)} events/s, ${ENDPOINTS} jobs each)`);
    console.log(
      `throughput: ${drained.n} deliveries in ${drainS.toFixed(1)} s = ${Math.round(drained.n / drainS)} deliveries/s (bad signatures: ${drained.bad})`,
    );
    // Independent of how busy the machine is: what one delivery costs the worker process (PostgreSQL not included).
    console.log(`worker CPU: ${((cpu.user + cpu.system) / 1000 / drained.n).toFixed(2)} ms per delivery (start-up included)`);

    // Phase 2: latency at a steady rate.
    t0 = performance.now();
    const ids = await recordEvents(db, docs, total, perSecond);
    const steady = await waitForDeliveries(receiver, total * ENDPOINTS, 600_000);
    const steadyS = (performance.now() - t0) / 1000;
    receiver.send({ kind: 'samples' });
    const { samples } = await nextMessage<{ samples: Received[] }>(receiver, 'samples');
    const created = new Map<string, number>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await db
        .select({ id: events.id, createdAt: events.createdAt })
        .from(events)
        .where(inArray(events.id, ids.slice(i, i + 1000)));
      for (const r of rows) created.set(r.id, r.createdAt.getTime());
    }
    const latencies = samples
      .map((s) => s.at - created.get(s.eventId)!)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const failed = await db.execute<{ n: number }>(sql`select count(*)::int as n from webhook_deliveries where delivered = 'no'`);
    console.log(
      `latency at ${perSecond} events/s (${perSecond * ENDPOINTS} deliveries/s offered): ${samples.length} deliveries in ${steadyS.toFixed(1)} s; ` +
        `p50 ${percentile(latencies, 50)} ms, p90 ${percentile(latencies, 90)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
    );
    console.log(`failed attempts logged: ${failed[0]!.n}; bad signatures: ${steady.bad}`);
  } finally {
    for (const p of procs) await stop(p);
    await db.$client.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (process.argv[2] === '--receiver') {
  const secrets: Record<string, string> = {};
  process.on('message', (m: { kind: string; secrets?: Record<string, string> }) => {
    if (m.kind === 'secrets') Object.assign(secrets, m.secrets);
  });
  runReceiver(secrets);
} else if (process.argv[2] === '--worker') {
  await runWorker(Number(process.argv[3]), process.argv[4] === 'batch');
} else {
  await main();
}
