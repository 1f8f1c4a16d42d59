/**
 * Black Friday burst (issue 6): N orders of one seller arrive at once; time until KSeF accepted all of them,
 * with the KSeF emulator enforcing the production limits (30 interactive invoices a minute, 180 an hour) and the
 * throttle using the production table. Prints the time, the KSeF requests used per endpoint group, 429 answers
 * (must be 0) and the batches, beside the time the same burst takes one by one within the hourly limit.
 * Run: DATABASE_URL=postgres://… npx tsx bench/burst.ts [orders=2000] [processing_delay_ms=1000]
 * The worker is worker/main.ts in a child process without the PDF, mail and webhook tasks (the stack runs PDFs
 * in a process of their own; they are not part of getting KSeF numbers).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { createEmulatorControl } from '@/emulators/ksef/control-client';
import { startKsefEmulator } from '@/emulators/ksef/server';
import { randomNip } from '@/emulators/ksef/testing';
import { withDatabase } from '@/test/global-setup';
import { collect, stopGroup, waitFor } from '@/test/web';
import { createAccount } from '@/server/accounts/create-account';
import { ROOT } from '@/server/config';
import { createDb } from '@/server/db/client';
import { migrateDatabase } from '@/server/db/migrate';
import { randomToken } from '@/server/ids';
import { createBurst, findLimitBreaches } from '@/test/fixtures/burst';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { PRODUCTION_LIMITS } from '@/server/ksef-connection/rate-limits';

const ORDERS = Number(process.argv[2] ?? 2_000);
const PROCESSING_DELAY_MS = Number(process.argv[3] ?? 1_000);

async function main() {
  process.env.APP_SECRET ??= randomToken(256);
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `kr_bench_burst_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(adminUrl, name);
  const ksef = await startKsefEmulator({ port: 0, host: '127.0.0.1', limits: 'prod', processingDelayMs: PROCESSING_DELAY_MS });
  const db = createDb(url, { max: 8 });
  let worker: ReturnType<typeof spawn> | undefined;
  try {
    await migrateDatabase(url);
    const nip = randomNip();
    const { accountId } = await createAccount(db, {
      email: `burst-${nip}@example.test`,
      seller: { nip, name: 'Sklep Burst sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' },
    });
    const scope = { accountId, mode: 'test' as const };
    const control = createEmulatorControl(ksef.url);
    await saveKsefCredential(db, scope, { kind: 'token', token: (await control.createCredentials(nip)).token });

    worker = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'worker/main.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, KSEF_TEST_BASE_URL: ksef.url, WORKER_TASKS: '-pdf_render,-mail_send,-webhook_deliver' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const output = collect(worker);
    await waitFor(async () => output().includes('worker: running'), 30_000, output);

    const started = Date.now();
    const ids = await createBurst(db, scope, ORDERS);
    const created = Date.now();
    let accepted = 0;
    await waitFor(
      async () => {
        const [row] = await db.execute<{ n: number; bad: number }>(
          sql`select count(*) filter (where status = 'accepted')::int as n, count(*) filter (where status in ('rejected', 'error', 'skipped'))::int as bad from documents where account_id = ${accountId}`,
        );
        accepted = row!.n;
        if (row!.bad > 0) throw new Error(`${row!.bad} documents ended outside accepted`);
        return accepted === ids.length;
      },
      3_600_000,
      () => `${accepted} of ${ids.length} accepted\n${output().slice(-2000)}`,
    );
    const done = Date.now();

    const counters = await control.counters();
    const apiRequests = Object.entries(counters.requests).filter(([op]) => !/^control|^uploadBatchPart$|^downloadUpo$/.test(op));
    const groups = await db.execute<{ group: string; n: number }>(
      sql`select split_part(limiter, '|', 3) as group, count(*)::int as n from ksef_request_log group by 1 order by 2 desc`,
    );
    const batches = await db.execute<{ n: number; sizes: string }>(
      sql`select count(*)::int as n, string_agg(document_count::text, ' + ' order by created_at) as sizes from ksef_batches where status = 'done'`,
    );
    const interactive = await db.execute<{ n: number }>(
      sql`select count(*)::int as n from documents d where account_id = ${accountId} and not exists (select 1 from ksef_batch_documents b join ksef_batches k on k.id = b.batch_id where b.document_id = d.id and k.status = 'done')`,
    );
    const breaches = await findLimitBreaches(db);
    const oneByOneHours = ORDERS / PRODUCTION_LIMITS.invoiceSend.perHour;

    console.log(`burst of ${ORDERS} orders, one seller, KSeF emulator with production limits, processing delay ${PROCESSING_DELAY_MS} ms`);
    console.log(`  orders created (service calls, 8 at a time): ${((created - started) / 1000).toFixed(1)} s`);
    console.log(`  all ${ORDERS} accepted by KSeF:            ${((done - started) / 1000).toFixed(1)} s after the first order (goal ≤ 600 s)`);
    console.log(`  one by one within 180 invoices/hour:       ${oneByOneHours.toFixed(1)} h`);
    console.log(`  batch sessions: ${batches[0]!.n} (${batches[0]!.sizes ?? '-'} documents); sent interactively: ${interactive[0]!.n}`);
    console.log(
      `  KSeF API requests (rate-limited endpoints): ${apiRequests.reduce((n, [, v]) => n + v, 0)}  ${apiRequests.map(([op, n]) => `${op} ${n}`).join(', ')}`,
    );
    console.log(
      `  not limited: part uploads ${counters.requests.uploadBatchPart ?? 0}, UPO downloads from pre-signed links ${counters.requests.downloadUpo ?? 0}`,
    );
    console.log(`  throttle log by group: ${groups.map((g) => `${g.group} ${g.n}`).join(', ')}`);
    console.log(`  429 answers from KSeF: ${counters.rateLimited}; windows over a limit: ${breaches.length}`);
  } finally {
    if (worker) await stopGroup(worker, 'SIGTERM');
    await db.$client.end();
    await ksef.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
