/**
 * bench/pipeline.ts (issue 5): documents from pending to accepted through the real worker process and the KSeF
 * emulator (its own process, processing delay 0, test-environment limits).
 *   1. throughput: 2,000 invoices across 20 sellers inserted at once; documents/s until all are accepted,
 *      and p50/p99 create-to-accepted;
 *   2. latency: an offered 20 documents/s for 20 s; p50/p99 create-to-accepted.
 * PDF rendering runs in its own worker process in the stack and is not part of this figure (bench/pdf.ts).
 * Usage: npx tsx bench/pipeline.ts [documents=2000] [sellers=20] [workers=1]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createEmulatorControl } from '@/emulators/ksef/control-client';
import { randomNip } from '@/emulators/ksef/testing';
import { createAccount } from '@/server/accounts/create-account';
import { ROOT } from '@/server/config';
import type { Db } from '@/server/db/client';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { paidOrder } from '@/test/orders';
import { collect, freePort, stopGroup, waitFor } from '@/test/web';
import { rssMb } from './lib/cpu';
import { createdToAcceptedMs as latencies, percentile } from './lib/documents';
import { createBenchDatabase } from './lib/stack';

const [documents = 2000, sellerCount = 20, workerCount = 1] = process.argv.slice(2).map(Number);
const children: ChildProcess[] = [];

/** BENCH_COMPILED_WORKER=1 runs the production bundle (dist/worker.mjs, `npm run build:server`) instead of tsx. */
const compiledWorker = process.env.BENCH_COMPILED_WORKER === '1';

function child(file: string, env: Record<string, string>) {
  const args = compiledWorker && file === 'worker/main.ts' ? [path.join(ROOT, 'dist/worker.mjs')] : ['--import', 'tsx', path.join(ROOT, file)];
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.push(proc);
  return collect(proc);
}

async function acceptedCount(db: Db, ids: string[]): Promise<{ accepted: number; final: number }> {
  const [row] = await db.execute<{ accepted: number; final: number }>(sql`
    select count(*) filter (where status = 'accepted')::int as accepted,
           count(*) filter (where status in ('accepted', 'rejected', 'error', 'skipped'))::int as final
    from documents where id in ${ids}`);
  return row!;
}

async function main() {
  const { url, db, stop: dropDatabase } = await createBenchDatabase();
  process.env.APP_SECRET ??= 'bench-app-secret-not-for-production';
  try {
    const port = await freePort();
    const ksefUrl = `http://127.0.0.1:${port}/v2`;
    child('emulators/ksef/main.ts', { KSEF_EMULATOR_PORT: String(port), KSEF_EMULATOR_LIMITS: 'test', KSEF_EMULATOR_DELAY_MS: '0' });
    await waitFor(
      async () =>
        fetch(`${ksefUrl}/security/public-key-certificates`).then(
          () => true,
          () => false,
        ),
      30_000,
    );
    const control = createEmulatorControl(ksefUrl);
    const scopes: { accountId: string; mode: 'test' }[] = [];
    for (let i = 0; i < sellerCount; i++) {
      const nip = randomNip();
      const acct = await createAccount(db, {
        email: `bench-${i}@example.test`,
        seller: { nip, name: `Sklep ${i}`, address1: 'ul. Prosta 1', address2: '00-001 Warszawa' },
      });
      const scope = { accountId: acct.accountId, mode: 'test' as const };
      await saveKsefCredential(db, scope, { kind: 'token', token: (await control.createCredentials(nip)).token });
      scopes.push(scope);
    }
    const workerEnv = { DATABASE_URL: url, KSEF_TEST_BASE_URL: ksefUrl, WORKER_TASKS: '-pdf_render,-mail_send', WORKER_CONCURRENCY: '16' };
    const outputs = Array.from({ length: workerCount }, () => child('worker/main.ts', workerEnv));
    await waitFor(
      async () => outputs.every((o) => o().includes('worker: running')),
      30_000,
      () => outputs.map((o) => o()).join('\n'),
    );
    const workerPids = children.slice(-workerCount).map((c) => c.pid!);
    await new Promise((r) => setTimeout(r, 3_000));
    const idleRss = workerPids.map((pid) => rssMb([pid]));
    let peakRss = idleRss.slice();
    const sampler = setInterval(() => (peakRss = workerPids.map((pid, i) => Math.max(peakRss[i]!, rssMb([pid])))), 250);
    // warm-up: every seller authenticates and opens its session once
    const warm = await Promise.all(scopes.map((s) => createInvoiceDocument(db, s, parseOrderInput(paidOrder())).then((r) => r.document.id)));
    await waitFor(async () => (await acceptedCount(db, warm)).final === warm.length, 60_000);

    // 1. throughput
    const order = paidOrder();
    const t0 = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < documents; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, documents - i) }, (_, j) =>
          createInvoiceDocument(db, scopes[(i + j) % scopes.length]!, parseOrderInput({ ...order, external_id: `b-${i + j}` })).then((r) => r.document.id),
        ),
      );
      ids.push(...batch);
    }
    const created = Date.now();
    await waitFor(async () => (await acceptedCount(db, ids)).final === ids.length, 600_000);
    const elapsed = (Date.now() - t0) / 1000;
    const counts = await acceptedCount(db, ids);
    const lat = await latencies(db, ids);

    // 2. latency at an offered 20 documents/s
    const paced: string[] = [];
    const start = Date.now();
    for (let i = 0; i < 400; i++) {
      const due = start + i * 50;
      await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())));
      const s = scopes[i % scopes.length]!;
      void createInvoiceDocument(db, s, parseOrderInput({ ...order, external_id: `p-${i}` })).then((r) => paced.push(r.document.id));
    }
    await waitFor(async () => paced.length === 400 && (await acceptedCount(db, paced)).final === 400, 120_000);
    const pacedLat = await latencies(db, paced);

    console.log(
      `\npipeline: ${documents} invoices, ${sellerCount} sellers, ${workerCount} worker process(es) × concurrency 16, KSeF emulator delay 0, test limits`,
    );
    console.table([
      {
        run: `burst of ${documents}`,
        'docs/s': Math.round((counts.accepted / elapsed) * 10) / 10,
        accepted: `${counts.accepted}/${documents}`,
        'insert s': (created - t0) / 1000,
        'total s': elapsed,
        'p50 ms': Math.round(percentile(lat, 50)),
        'p99 ms': Math.round(percentile(lat, 99)),
      },
      {
        run: 'offered 20/s × 20 s',
        'docs/s': 20,
        accepted: `${(await acceptedCount(db, paced)).accepted}/400`,
        'insert s': '',
        'total s': '',
        'p50 ms': Math.round(percentile(pacedLat, 50)),
        'p99 ms': Math.round(percentile(pacedLat, 99)),
      },
    ]);
    clearInterval(sampler);
    console.log('goals: ≥ 50 docs/s on 2 cores; p50 ≤ 1000 ms at an offered 20/s');
    console.log(
      `worker RSS (${compiledWorker ? 'dist/worker.mjs' : 'tsx worker/main.ts'}): idle ${idleRss.join(', ')} MB, peak under load ${peakRss.join(', ')} MB (goal ≤ 250 MB)`,
    );
  } finally {
    await Promise.all(children.map((c) => stopGroup(c)));
    await dropDatabase();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
