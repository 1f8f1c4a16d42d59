/**
 * GET /v1/account against the bare route (`{}` through Next.js, no database) in one run: 50 connections for 10 s
 * each, requests rotating over many API keys so that the 100/minute/key limit is not what gets measured.
 * Issue goal: ≥ 60 % of the bare route's req/s with p99 ≤ 50 ms.
 * Run: npm run build && npm run bench:api [-- accounts=2000 seconds=10 connections=50]
 */
import { measureLoad } from './lib/load';
import { printComparison } from './lib/report';
import { startBenchStack } from './lib/stack';
import { readArgs } from './lib/args';

const args = readArgs({ accounts: 2000, seconds: 10, connections: 50, warmup: 3 });
const WARMUP_KEYS = 200;

const stack = await startBenchStack({ accounts: args.accounts });
let ok = false;
try {
  const warmKeys = stack.keys.slice(0, WARMUP_KEYS);
  const keys = stack.keys.slice(WARMUP_KEYS);
  const common = { url: stack.url, connections: args.connections };
  const metered = { ...common, cpuMeter: stack.startCpuMeter };
  // JIT, connection pools and Next.js's lazily loaded route modules, before anything is timed.
  await measureLoad({ ...common, name: 'warm-up bare', path: '/bench/bare', seconds: args.warmup });
  await measureLoad({ ...common, name: 'warm-up account', path: '/v1/account', seconds: args.warmup, keys: warmKeys });

  const bare = await measureLoad({ ...metered, name: 'GET /bench/bare', path: '/bench/bare', seconds: args.seconds });
  const account = await measureLoad({ ...metered, name: `GET /v1/account (${keys.length} keys)`, path: '/v1/account', seconds: args.seconds, keys });
  ok = printComparison(`GET /v1/account, ${args.connections} connections × ${args.seconds} s`, bare, [account], { minShareOfBare: 0.6, maxP99Ms: 50 });
} finally {
  await stack.stop();
}
process.exit(ok ? 0 : 1);
