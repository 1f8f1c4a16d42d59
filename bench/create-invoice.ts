/**
 * POST /v1/invoices with a 10-line order against the bare route (bench/bare-app: `{}` through Next.js) in one run: 50 connections
 * for 10 s each, every request a new order under a key taken in turn from many accounts; once without and once with
 * an Idempotency-Key (what a careful shop integration sends). Then the latency of one 1000-line order. CPU per
 * request and `slices=N` as in bench/api.ts.
 * Issue goal: ≥ 40 % of the bare route's req/s with p99 ≤ 60 ms.
 * Run: npm run build && npm run bench:create-invoice [-- accounts=2000 seconds=10 connections=50 large=5 slices=1]
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { measureInterleaved, measureLoad } from './lib/load';
import { orderBodyFactory } from './lib/orders';
import { printComparison } from './lib/report';
import { startBenchStack } from './lib/stack';
import { readArgs } from './lib/args';

const args = readArgs({ accounts: 2000, seconds: 10, connections: 50, warmup: 3, large: 5, slices: 1 });
const WARMUP_KEYS = 200;
const run = randomBytes(4).toString('hex');

const stack = await startBenchStack({ accounts: args.accounts });
let ok = false;
try {
  const warmKeys = stack.keys.slice(0, WARMUP_KEYS);
  const keys = stack.keys.slice(WARMUP_KEYS);
  const tenLines = orderBodyFactory(10);
  const common = { url: stack.url, connections: args.connections };
  const metered = { ...common, cpuMeter: stack.startCpuMeter };
  const post = (label: string) => ({ method: 'POST' as const, path: '/v1/invoices', body: (n: number) => tenLines(`${run}-${label}-${n}`) });

  await measureLoad({ ...common, url: stack.bareUrl, name: 'warm-up bare', path: '/bench/bare', seconds: args.warmup });
  await measureLoad({ ...common, ...post('warm'), name: 'warm-up invoices', seconds: args.warmup, keys: warmKeys });

  const [bare, plain, idempotent] = await measureInterleaved(
    [
      { ...metered, url: stack.bareUrl, name: 'GET /bench/bare (bench/bare-app)', path: '/bench/bare', seconds: args.seconds },
      { ...metered, ...post('plain'), name: 'POST /v1/invoices, 10 lines', seconds: args.seconds, keys },
      {
        ...metered,
        ...post('idem'),
        name: 'POST /v1/invoices, 10 lines, Idempotency-Key',
        seconds: args.seconds,
        keys,
        headers: (n: number) => ({ 'idempotency-key': `${run}-idem-${n}` }),
      },
    ],
    args.slices,
  );
  if (!bare || !plain || !idempotent) throw new Error('a run gave no figures');
  ok = printComparison(`POST /v1/invoices, ${args.connections} connections × ${args.seconds} s, ${keys.length} keys`, bare, [plain, idempotent], {
    minShareOfBare: 0.4,
    maxP99Ms: 60,
  });

  // Every 201 must be a pending invoice with its document_prepare job: the figures count real intake, not errors.
  const [made] = await stack.db.execute<{ documents: number; jobs: number }>(sql`
    select (select count(*)::int from documents where order_external_id like ${`${run}-plain-%`} or order_external_id like ${`${run}-idem-%`}) as documents,
           (select count(*)::int from graphile_worker.jobs where task_identifier = 'document_prepare') as jobs`);
  const created = (plain.statuses['201'] ?? 0) + (idempotent.statuses['201'] ?? 0);
  const stored = made?.documents ?? 0;
  console.log(`201 answers counted: ${created}; invoices stored: ${stored}; document_prepare jobs (warm-up included): ${made?.jobs}`);
  // Requests still in flight when a slice's clock stops are answered after it, uncounted: at most one per connection.
  if (stored < created || stored > created + 2 * args.slices * args.connections) ok = false;

  const large = orderBodyFactory(1000);
  const latencies: number[] = [];
  for (let i = 0; i < args.large; i++) {
    const started = performance.now();
    const res = await fetch(`${stack.url}/v1/invoices`, {
      method: 'POST',
      headers: { authorization: `Bearer ${warmKeys[i % warmKeys.length]}`, 'content-type': 'application/json' },
      body: large(`${run}-large-${i}`),
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`the 1000-line order answered ${res.status}`);
  }
  const sorted = [...latencies].sort((a, b) => a - b);
  const bytes = large('x').length;
  console.log(
    `1000-line order (${Math.round(bytes / 1024)} KB), ${args.large} requests one after another: ` +
      `min ${sorted[0]?.toFixed(0)} ms, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(0)} ms, max ${sorted.at(-1)?.toFixed(0)} ms ` +
      `(first, cold: ${latencies[0]?.toFixed(0)} ms)`,
  );
} finally {
  await stack.stop();
}
process.exit(ok ? 0 : 1);
