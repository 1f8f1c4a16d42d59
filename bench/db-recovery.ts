/**
 * How soon a pool serves again once PostgreSQL is back after an outage. A TCP proxy in front of the server
 * (test/tcp-proxy.ts) is cut five times within a second and then kept down for 8 s, as the worker-fault tests do;
 * 20 query loops run through one pool (createDb, 10 connections). Printed per round: the time from the server
 * being reachable again until every loop has finished a query it started after that.
 * Run: npx tsx bench/db-recovery.ts [-- rounds=8]
 */
import { sql } from 'drizzle-orm';
import { createDb } from '@/server/db/client';
import { startTcpProxy } from '@/test/tcp-proxy';
import { readArgs } from './lib/args';
import { createBenchDatabase } from './lib/stack';

const args = readArgs({ rounds: 8 });
const LOOPS = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// postgres.js throws a write on a closed socket outside any promise (server/db/faults.ts); its query already failed
process.on('uncaughtException', () => {});

const bench = await createBenchDatabase();
const target = new URL(bench.url);
const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
const viaProxy = new URL(bench.url);
viaProxy.host = `127.0.0.1:${proxy.port}`;
const db = createDb(viaProxy.toString(), { max: 10, connectTimeoutSeconds: 3 });

let upAt = Infinity;
const servedAt: number[] = Array<number>(LOOPS).fill(0);
let running = true;
const loops = Array.from({ length: LOOPS }, async (_, i) => {
  while (running) {
    const started = Date.now();
    try {
      await db.execute(sql`select pg_sleep(0.005)`);
      if (started >= upAt && !servedAt[i]) servedAt[i] = Date.now();
    } catch {
      await sleep(10);
    }
  }
});

const recovery: number[] = [];
for (let round = 0; round < args.rounds; round++) {
  for (let cut = 0; cut < 5; cut++) {
    proxy.down();
    await sleep(100 + Math.random() * 300);
    proxy.up();
    await sleep(50 + Math.random() * 200);
  }
  proxy.down();
  await sleep(8_000);
  servedAt.fill(0);
  upAt = Date.now();
  proxy.up();
  while (servedAt.some((t) => !t) && Date.now() - upAt < 60_000) await sleep(20);
  recovery.push(Math.max(...servedAt.map((t) => (t ? t - upAt : 60_000))));
  upAt = Infinity;
  await sleep(2_000);
}
running = false;
await Promise.all(loops);
await db.$client.end({ timeout: 1 });
await proxy.close();
await bench.stop();
console.log(`rounds: ${args.rounds}; every loop served again after the database was back, ms (sorted): ${recovery.sort((a, b) => a - b).join(' ')}`);
