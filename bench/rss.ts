/**
 * Resident memory of the web process (`next start`, its whole process group), idle and while it takes a load of
 * invoice creations (1–2 KB bodies), list pages and account reads from 20 connections. Issue 16 goal: ≤ 250 MB.
 * The worker's figures come from bench/pipeline.ts (BENCH_COMPILED_WORKER=1 for the production bundle).
 * Run: npm run build && npx tsx bench/rss.ts [requests=3000]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { paidOrder } from '@/test/orders';
import { startBenchStack } from './lib/stack';

const requests = Number(process.argv[2] ?? 3000);

/** Sum of VmRSS over the processes of a process group, in MB (Linux /proc). */
function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // the process ended while we read
    }
  }
  return Math.round(kb / 1024);
}

const stack = await startBenchStack({ accounts: 100 });
try {
  await new Promise((r) => setTimeout(r, 3_000));
  const idle = groupRssMb(stack.webPid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, groupRssMb(stack.webPid))), 200);
  let next = 0;
  const one = async (i: number) => {
    const key = stack.keys[i % stack.keys.length]!;
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const kind = i % 3;
    const res =
      kind === 0
        ? await fetch(`${stack.url}/v1/invoices`, { method: 'POST', headers, body: JSON.stringify({ order: paidOrder({ external_id: `rss-${i}` }) }) })
        : await fetch(`${stack.url}${kind === 1 ? '/v1/invoices?limit=100' : '/v1/account'}`, { headers });
    await res.arrayBuffer();
  };
  const started = Date.now();
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (next < requests) await one(next++);
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  const after = groupRssMb(stack.webPid);
  console.log(
    `web RSS (next start): idle ${idle} MB, peak ${peak} MB during ${requests} requests in ${seconds.toFixed(1)} s, ${after} MB after (goal ≤ 250 MB)`,
  );
} finally {
  await stack.stop();
}
