/**
 * GET /v1/account and GET /v1/invoices/{id} (an invoice of the key's own account, 10 lines) against the bare
 * route (bench/bare-app: `{}` through Next.js, no database) in one run: 50 connections for 10 s each, requests
 * rotating over many API keys so that the 100/minute/key limit is not what gets measured. Besides req/s and
 * latency it prints the server side's CPU per request, which the load of others on a shared machine moves far
 * less; `slices=4` alternates the routes in four slices each, so that such load falls on all alike (new
 * connections at every slice's start add a little to p99).
 * Issue goal: ≥ 60 % of the bare route's req/s with p99 ≤ 50 ms.
 * Run: npm run build && npm run bench:api [-- accounts=2000 seconds=10 connections=50 slices=1]
 */
import { measureInterleaved, measureLoad } from './lib/load';
import { orderBodyFactory } from './lib/orders';
import { printComparison } from './lib/report';
import { startBenchStack } from './lib/stack';
import { readArgs } from './lib/args';

const args = readArgs({ accounts: 2000, seconds: 10, connections: 50, warmup: 3, slices: 1 });
const WARMUP_KEYS = 200;

const stack = await startBenchStack({ accounts: args.accounts });
let ok = false;
try {
  const warmKeys = stack.keys.slice(0, WARMUP_KEYS);
  const keys = stack.keys.slice(WARMUP_KEYS);
  const common = { url: stack.url, connections: args.connections };
  const metered = { ...common, cpuMeter: stack.startCpuMeter };
  // JIT, connection pools and Next.js's lazily loaded route modules, before anything is timed.
  await measureLoad({ ...common, url: stack.bareUrl, name: 'warm-up bare', path: '/bench/bare', seconds: args.warmup });
  await measureLoad({ ...common, name: 'warm-up account', path: '/v1/account', seconds: args.warmup, keys: warmKeys });

  const invoiceIds = await oneInvoicePerKey(stack.url, keys);
  await measureLoad({
    ...common,
    name: 'warm-up invoice',
    path: '/v1/invoices/{id}',
    pathOf: (n) => `/v1/invoices/${invoiceIds[n % keys.length]}`,
    seconds: args.warmup,
    keys,
  });

  const [bare, account, invoice] = await measureInterleaved(
    [
      { ...metered, url: stack.bareUrl, name: 'GET /bench/bare (bench/bare-app)', path: '/bench/bare', seconds: args.seconds },
      { ...metered, name: `GET /v1/account (${keys.length} keys)`, path: '/v1/account', seconds: args.seconds, keys },
      {
        ...metered,
        name: 'GET /v1/invoices/{id}',
        path: '/v1/invoices/{id}',
        pathOf: (n) => `/v1/invoices/${invoiceIds[n % keys.length]}`,
        seconds: args.seconds,
        keys,
      },
    ],
    args.slices,
  );
  if (!bare || !account || !invoice) throw new Error('a run gave no figures');
  ok = printComparison(`GET /v1/account and /v1/invoices/{id}, ${args.connections} connections × ${args.seconds} s`, bare, [account, invoice], {
    minShareOfBare: 0.6,
    maxP99Ms: 50,
  });
} finally {
  await stack.stop();
}
process.exit(ok ? 0 : 1);

/** One invoice for each key, in the key's own account, made through the API 20 at a time; their ids by key. */
async function oneInvoicePerKey(url: string, keys: readonly string[]): Promise<string[]> {
  const body = orderBodyFactory(10);
  const ids: string[] = [];
  for (let start = 0; start < keys.length; start += 20) {
    const batch = keys.slice(start, start + 20).map(async (key, i) => {
      const res = await fetch(`${url}/v1/invoices`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body(`get-bench-${start + i}`),
      });
      if (res.status !== 201) throw new Error(`creating an invoice answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { id: string }).id;
    });
    ids.push(...(await Promise.all(batch)));
  }
  return ids;
}
