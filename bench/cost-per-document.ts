/**
 * bench/cost-per-document.ts (issue 19): the whole pipeline black-box, as `npm start` runs it: `next start`, the
 * compiled worker (dist/worker.mjs), the KSeF emulator in its own process with its default 1 s processing delay
 * and test limits, the SMTP sink, one webhook endpoint per seller (a receiver in this process), PostgreSQL.
 * Orders of 10 lines come in over HTTP (POST /v1/invoices); a document counts as done when it is accepted and its
 * PDF, e-mail and webhook delivery are done (no job of it is left).
 *   1. throughput: `documents` orders over `sellers` sellers as fast as 50 connections post them;
 *   2. latency: an offered 20 orders/s for 30 s; create→accepted p50/p99.
 * CPU per step: with layout `steps` every step has a worker process of its own (and PGAPPNAME), so the CPU of
 * each process and of its PostgreSQL backends is that step's; layout `stack` is the stack's own (worker + PDF worker).
 * Per accepted document it also prints, from PostgreSQL's statistics counters read before and after the burst (each
 * read after the backends' pending statistics are flushed): the rows inserted into graphile-worker's job table and
 * the transactions (commits and rollbacks); and beside the pipeline's CPU the "intrinsic work" of a document (the
 * FA(3) build, XSD check, PDF and MIME message in one process loop, bench/lib/intrinsic.ts) and their ratio.
 * Usage: npm run build && npx tsx bench/cost-per-document.ts [documents=2000] [sellers=100] [layout=stack|steps] [workers=1]
 * (the older positional form `2000 100 stack 1` works too; BENCH_CPU_PROF=dir to profile the workers)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createEmulatorControl } from '@/emulators/ksef/control-client';
import { randomNip } from '@/emulators/ksef/testing';
import { createAccount } from '@/server/accounts/create-account';
import { ROOT } from '@/server/config';
import { randomToken } from '@/server/ids';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { collect, freePort, stopGroup, waitFor } from '@/test/web';
import { WORKER_PROCESSES } from '@/server/jobs/process-layout';
import { groupPids, rssMb, takeCpuSnapshot } from './lib/cpu';
import { createdToAcceptedMs, percentile } from './lib/documents';
import { orderBodyFactory } from './lib/orders';
import { startBenchStack } from './lib/stack';

/** `name=value` arguments, or the older positional form in the order of POSITIONAL. */
const POSITIONAL = ['documents', 'sellers', 'layout', 'workers'] as const;
const given = new Map<string, string>();
process.argv.slice(2).forEach((arg, i) => {
  const [name, value] = arg.includes('=') ? arg.split('=') : [POSITIONAL[i], arg];
  if (!name || value === undefined || !(POSITIONAL as readonly string[]).includes(name))
    throw new Error(`unknown argument ${arg}; expected ${POSITIONAL.map((p) => `${p}=…`).join(' ')}`);
  given.set(name, value);
});
const documents = Number(given.get('documents') ?? 2000);
const sellerCount = Number(given.get('sellers') ?? 100);
const layout = given.get('layout') === 'steps' ? 'steps' : 'stack';
/** Pipeline worker processes of layout `stack` (issue 19: scaling with 1, 2 and 4); the PDF worker stays one. */
const pipelineWorkers = Number(given.get('workers') ?? 1);
if (!Number.isInteger(pipelineWorkers) || pipelineWorkers < 1) throw new Error(`workers must be a whole number ≥ 1, got ${given.get('workers')}`);
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** BENCH_CPU_PROF=dir: each worker writes a V8 CPU profile there when it stops (open it in Chrome's DevTools). */
const profileArgs = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];

/** Worker processes: the stack's two, or one per step (tasks not named fall to `other`: crons, offline, stores). */
const LAYOUTS: Record<typeof layout, { name: string; env: Record<string, string> }[]> = {
  stack: [
    ...Array.from({ length: pipelineWorkers }, (_, i) => ({ name: pipelineWorkers === 1 ? 'worker' : `worker-${i + 1}`, env: WORKER_PROCESSES.worker })),
    { name: 'worker-pdf', env: WORKER_PROCESSES['worker-pdf'] },
  ],
  steps: [
    { name: 'prepare', env: { WORKER_TASKS: 'document_prepare' } },
    { name: 'send', env: { WORKER_TASKS: 'ksef_send,ksef_batch_status' } },
    { name: 'status', env: { WORKER_TASKS: 'ksef_status' } },
    // pdf_render sends each first e-mail right after its PDF: `mail` is the refused e-mails' retries only
    { name: 'pdf', env: WORKER_PROCESSES['worker-pdf'] },
    { name: 'mail', env: { WORKER_TASKS: 'mail_send' } },
    { name: 'webhook', env: { WORKER_TASKS: 'webhook_deliver' } },
    {
      name: 'other',
      env: { WORKER_TASKS: '-document_prepare,-ksef_send,-ksef_batch_status,-ksef_status,-pdf_render,-mail_send,-webhook_deliver' },
    },
  ],
};

const children: ChildProcess[] = [];
function child(args: string[], env: Record<string, string>) {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(proc);
  return { proc, output: collect(proc) };
}
const tsx = (file: string, env: Record<string, string>) => child(['--import', 'tsx', path.join(ROOT, file)], env);
const alive = (url: string) =>
  fetch(url).then(
    () => true,
    () => false,
  );

async function main() {
  // this process seals the sellers' KSeF tokens; the web server and workers get the same secret
  process.env.APP_SECRET ??= randomToken(256);
  const webhookHits = { n: 0 };
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      webhookHits.n++;
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

  const ksefPort = await freePort();
  const ksefUrl = `http://127.0.0.1:${ksefPort}/v2`;
  tsx('emulators/ksef/main.ts', { KSEF_EMULATOR_PORT: String(ksefPort) });
  const smtpPort = await freePort();
  const smtpHttp = await freePort();
  tsx('emulators/smtp/main.ts', { SMTP_SINK_PORT: String(smtpPort), SMTP_SINK_HTTP_PORT: String(smtpHttp) });
  await waitFor(() => alive(`${ksefUrl}/security/public-key-certificates`), 30_000);
  await waitFor(() => alive(`http://127.0.0.1:${smtpHttp}/messages`), 30_000);

  const common = {
    KSEF_TEST_BASE_URL: ksefUrl,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    ALLOW_PRIVATE_TARGETS: '1',
    METRICS_TOKEN,
  };
  const stack = await startBenchStack({ accounts: 0, env: { ...common, PGAPPNAME: 'kr-web' } });
  const { db } = stack;
  try {
    const control = createEmulatorControl(ksefUrl);
    const keys: string[] = [];
    for (let i = 0; i < sellerCount; i++) {
      const nip = randomNip();
      const acct = await createAccount(db, {
        email: `cost-${i}@example.test`,
        seller: { nip, name: `Sklep ${i} sp. z o.o.`, address1: 'ul. Prosta 1', address2: '00-001 Warszawa' },
      });
      await saveKsefCredential(db, { accountId: acct.accountId, mode: 'test' }, { kind: 'token', token: (await control.createCredentials(nip)).token });
      const created = await fetch(`${stack.url}/v1/webhook_endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${acct.testKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: receiverUrl, enabled_events: ['*'] }),
      });
      if (created.status !== 201) throw new Error(`webhook endpoint: ${created.status} ${await created.text()}`);
      keys.push(acct.testKey);
    }

    const workers = await Promise.all(
      LAYOUTS[layout].map(async (w) => {
        const port = await freePort();
        const env = {
          ...common,
          DATABASE_URL: stack.databaseUrl,
          APP_SECRET: stack.appSecret,
          ...w.env,
          WORKER_HEALTH_PORT: String(port),
          PGAPPNAME: `kr-${w.name}`,
        };
        return { ...w, port, ...child([...profileArgs, path.join(ROOT, 'dist/worker.mjs')], env) };
      }),
    );
    await waitFor(
      async () => workers.every((w) => w.output().includes('worker: running')),
      30_000,
      () => workers.map((w) => w.output()).join('\n'),
    );

    const body = orderBodyFactory(10);
    const post = async (n: number, prefix: string): Promise<{ id: string; at: number }> => {
      const res = await fetch(`${stack.url}/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keys[n % keys.length]}`, 'content-type': 'application/json' },
        body: body(`${prefix}-${n}`),
      });
      if (res.status !== 201) throw new Error(`POST /v1/invoices: ${res.status} ${await res.text()}`);
      return { id: ((await res.json()) as { id: string }).id, at: Date.now() };
    };
    /** Every document final and no job but the crons' left: PDFs rendered, mails and webhooks delivered. */
    const drained = async (ids: string[]) => {
      const [row] = await db.execute<{ open: number; jobs: number }>(sql`
        select (select count(*) from documents where id in ${ids} and status in ('pending', 'queued', 'sending'))::int as open,
               (select count(*) from graphile_worker.jobs where task_identifier not in ('ksef_sweep', 'ksef_check', 'maintenance', 'plan_release', 'store_sync'))::int as jobs`);
      return row!.open === 0 && row!.jobs === 0;
    };

    // warm-up: each seller authenticates, opens its session and renders once
    const warm = await Promise.all(keys.map((_, i) => post(i, 'warm').then((r) => r.id)));
    await waitFor(() => drained(warm), 180_000);

    // 1. throughput, CPU and queries per document
    const processes = [{ name: 'web', pids: () => groupPids(stack.webPid) }, ...workers.map((w) => ({ name: w.name, pids: () => groupPids(w.proc.pid!) }))];
    const pg = await startBackendMeter(stack);
    const before = new Map(processes.map((p) => [p.name, sumCpu(p.pids())]));
    const queriesBefore = await scrapeQueries(stack.url, workers);
    const xactBefore = await pgCounters(stack);
    const peakRss = new Map<string, number>();
    const sampler = setInterval(() => {
      for (const p of processes) peakRss.set(p.name, Math.max(peakRss.get(p.name) ?? 0, rssMb(p.pids())));
    }, 250);
    const t0 = Date.now();
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        while (next < documents) ids.push((await post(next++, 'burst')).id);
      }),
    );
    const posted = Date.now();
    let acceptedAt = 0;
    await waitFor(async () => {
      if (!acceptedAt) {
        const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from documents where id in ${ids} and status = 'accepted'`);
        if (row!.n === ids.length) acceptedAt = Date.now();
      }
      return drained(ids);
    }, 900_000);
    const done = Date.now();
    const pgCpu = await pg.stop();
    const cpu = processes.map((p) => ({ name: p.name, ms: sumCpu(p.pids()) - before.get(p.name)! }));
    const queriesAfter = await scrapeQueries(stack.url, workers);
    const xactAfter = await pgCounters(stack);
    const xact = xactAfter.commits - xactBefore.commits;
    const xacts = xact + xactAfter.rollbacks - xactBefore.rollbacks;
    const walSyncs = xactAfter.walSyncs - xactBefore.walSyncs;
    const lat = await createdToAcceptedMs(db, ids);
    const loadDuring = loadavg()[0]!;

    // 2. latency at an offered 20 orders/s for 30 s
    const paced: Promise<{ id: string; at: number }>[] = [];
    const start = Date.now();
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => setTimeout(r, Math.max(0, start + i * 50 - Date.now())));
      paced.push(post(i, 'paced'));
    }
    const pacedIds = (await Promise.all(paced)).map((r) => r.id);
    await waitFor(() => drained(pacedIds), 300_000);
    const pacedLat = await createdToAcceptedMs(db, pacedIds);
    clearInterval(sampler);

    const n = ids.length;
    console.log(
      `\ncost per document: ${n} orders of 10 lines over ${sellerCount} sellers, layout ${layout} (${workers.map((w) => w.name).join(', ')}), KSeF emulator 1 s processing delay, test limits, 2 cores`,
    );
    console.table([
      {
        run: `burst of ${n}`,
        'intake req/s': Math.round((n / (posted - t0)) * 1000),
        'accepted docs/s': Math.round((n / (acceptedAt - t0)) * 10000) / 10,
        'done docs/s': Math.round((n / (done - t0)) * 10000) / 10,
        'p50 ms': Math.round(percentile(lat, 50)),
        'p99 ms': Math.round(percentile(lat, 99)),
      },
      { run: 'offered 20/s × 30 s', 'intake req/s': 20, 'p50 ms': Math.round(percentile(pacedLat, 50)), 'p99 ms': Math.round(percentile(pacedLat, 99)) },
    ]);
    const rows = cpu.map((c) => ({
      process: c.name,
      'CPU ms/doc': +(c.ms / n).toFixed(2),
      'its PostgreSQL CPU ms/doc': +((pgCpu.get(`kr-${c.name}`) ?? 0) / n).toFixed(2),
      'queries/doc': +(((queriesAfter.get(c.name)?.queries ?? 0) - (queriesBefore.get(c.name)?.queries ?? 0)) / n).toFixed(1),
      'peak RSS MB': peakRss.get(c.name),
    }));
    console.table(rows);
    const other = [...pgCpu].filter(([app]) => !rows.some((r) => `kr-${r.process}` === app)).reduce((s, [, ms]) => s + ms, 0);
    const total = cpu.reduce((s, c) => s + c.ms, 0) + [...pgCpu.values()].reduce((s, ms) => s + ms, 0);
    console.log(
      `in all: ${(total / n).toFixed(1)} ms CPU per done document (service processes and their PostgreSQL backends; ${(other / n).toFixed(2)} ms of it in backends of other names), ${(xact / n).toFixed(1)} PostgreSQL commits and ${(walSyncs / n).toFixed(1)} WAL flushes per document, ${webhookHits.n} webhook deliveries received`,
    );
    console.log(
      `PostgreSQL statistics, per accepted document: ${(xacts / n).toFixed(1)} transactions (${(xact / n).toFixed(1)} commits); graphile_worker._private_jobs ${((xactAfter.jobs.ins - xactBefore.jobs.ins) / n).toFixed(2)} rows inserted, ${((xactAfter.jobs.upd - xactBefore.jobs.upd) / n).toFixed(2)} updated, ${((xactAfter.jobs.del - xactBefore.jobs.del) / n).toFixed(2)} deleted`,
    );
    console.log(jobsPerDocument(queriesBefore, queriesAfter, n));
    const intrinsic = await intrinsicWork();
    console.log(
      `intrinsic work (FA(3) build, XSD check, PDF, MIME message of a 10-line invoice in one process loop): ${intrinsic.toFixed(1)} ms CPU per document; the pipeline ${(total / n).toFixed(1)} ms per accepted document, ${(total / n / intrinsic).toFixed(2)}× the intrinsic work`,
    );
    console.log(`load average (1 min) at the end of the burst: ${loadDuring.toFixed(2)}, now ${loadavg()[0]!.toFixed(2)} on ${cpus().length} cores`);
    console.log('goals: ≥ 50 docs/s; at 20/s p50 ≤ 3 s, p99 ≤ 6 s; ≤ 30 ms CPU per document; ≤ 250 MB RSS per process');
  } finally {
    await Promise.all(children.map((c) => stopGroup(c)));
    await stack.stop();
    receiver.close();
  }
}

const sumCpu = (pids: number[]) => [...takeCpuSnapshot(pids).values()].reduce((s, ms) => s + ms, 0);

/** CPU of PostgreSQL backends by application name, sampled so that backends closed meanwhile still count. */
async function startBackendMeter(stack: Awaited<ReturnType<typeof startBenchStack>>) {
  const seen = new Map<number, { app: string; first: number; last: number }>();
  const sample = async () => {
    const rows = await stack.db.execute<{ pid: number; app: string }>(
      sql`select pid, application_name as app from pg_stat_activity where datname = current_database()`,
    );
    const now = takeCpuSnapshot(rows.map((r) => r.pid));
    for (const r of rows) {
      const ms = now.get(r.pid);
      if (ms === undefined) continue;
      const s = seen.get(r.pid);
      if (s) s.last = ms;
      else seen.set(r.pid, { app: r.app, first: ms, last: ms });
    }
  };
  await sample();
  // a failed sample (the server busy) is skipped: the next one reads the same counters further on
  const timer = setInterval(() => void sample().catch(() => {}), 500);
  return {
    stop: async () => {
      clearInterval(timer);
      await sample();
      const byApp = new Map<string, number>();
      for (const s of seen.values()) byApp.set(s.app, (byApp.get(s.app) ?? 0) + s.last - s.first);
      return byApp;
    },
  };
}

/** ksef_relay_db_queries_total of the web process and of each worker, and the jobs each worker ran by task. */
async function scrapeQueries(webUrl: string, workers: { name: string; port: number }[]) {
  const read = async (url: string) => {
    const text = await (await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const jobs = new Map<string, number>();
    for (const m of text.matchAll(/^ksef_relay_job_duration_seconds_count\{task="([^"]+)",outcome="[^"]+"\} (\d+)/gm)) {
      jobs.set(m[1]!, (jobs.get(m[1]!) ?? 0) + Number(m[2]));
    }
    return { queries: Number(/^ksef_relay_db_queries_total (\d+)/m.exec(text)?.[1] ?? 0), jobs };
  };
  const out = new Map([['web', await read(`${webUrl}/metrics`)]]);
  for (const w of workers) out.set(w.name, await read(`http://127.0.0.1:${w.port}/metrics`));
  return out;
}

/** Jobs per document by task over all workers, between two scrapes. */
function jobsPerDocument(before: Awaited<ReturnType<typeof scrapeQueries>>, after: Awaited<ReturnType<typeof scrapeQueries>>, n: number) {
  const byTask = new Map<string, number>();
  for (const [name, { jobs }] of after) {
    for (const [task, count] of jobs) byTask.set(task, (byTask.get(task) ?? 0) + count - (before.get(name)?.jobs.get(task) ?? 0));
  }
  const parts = [...byTask].filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1]);
  const all = parts.reduce((s, [, c]) => s + c, 0);
  return `${(all / n).toFixed(2)} jobs per document (${parts.map(([t, c]) => `${t} ${(c / n).toFixed(2)}`).join(', ')})`;
}

/**
 * PostgreSQL 15+ keeps statistics per backend and flushes them to shared memory at most once a second at a
 * transaction's end, and from an idle backend after 10 s (PGSTAT_IDLE_INTERVAL): so the counters are read after 11 s,
 * with this backend's own flushed and a fresh snapshot. The workers' polls meanwhile add a few transactions.
 */
const STATS_FLUSH_MS = 11_000;

/** Commits and rollbacks in the bench database, graphile-worker's job table rows, WAL flushes of the whole server. */
async function pgCounters(stack: Awaited<ReturnType<typeof startBenchStack>>) {
  await new Promise((r) => setTimeout(r, STATS_FLUSH_MS));
  await stack.db.execute(sql`select pg_stat_force_next_flush(), pg_stat_clear_snapshot()`);
  const [row] = await stack.db.execute<{ commits: string; rollbacks: string; ins: string; upd: string; del: string }>(sql`
    select d.xact_commit::text as commits, d.xact_rollback::text as rollbacks,
           t.n_tup_ins::text as ins, t.n_tup_upd::text as upd, t.n_tup_del::text as del
    from pg_stat_database d, pg_stat_user_tables t
    where d.datname = current_database() and t.schemaname = 'graphile_worker' and t.relname = '_private_jobs'`);
  // PostgreSQL 18 (the embedded cluster) moved WAL flushes from pg_stat_wal to pg_stat_io
  const [wal] = await stack.db.execute<{ syncs: string | null }>(
    sql.raw(
      Number((await stack.db.execute<{ v: string }>(sql`select current_setting('server_version_num') as v`))[0]!.v) >= 180000
        ? `select sum(fsyncs)::text as syncs from pg_stat_io where object = 'wal'`
        : `select wal_sync::text as syncs from pg_stat_wal`,
    ),
  );
  return {
    commits: Number(row!.commits),
    rollbacks: Number(row!.rollbacks),
    jobs: { ins: Number(row!.ins), upd: Number(row!.upd), del: Number(row!.del) },
    walSyncs: Number(wal?.syncs ?? 0),
  };
}

/** CPU ms per document of bench/lib/intrinsic.ts, in a process of its own with React in production mode. */
async function intrinsicWork(): Promise<number> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/lib/intrinsic.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((r) => proc.on('close', r));
  if (code !== 0) throw new Error(`bench/lib/intrinsic.ts exited with ${code}`);
  return (JSON.parse(out.trim().split('\n').at(-1)!) as { cpuMsPerDocument: number }).cpuMsPerDocument;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
