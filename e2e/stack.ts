/**
 * The whole stack for the Playwright run, started by e2e/global-setup.ts as a child process (run with tsx):
 * a fresh database, the KSeF, NBP, SMTP and WooCommerce emulators, `next start` and the worker, each on a free port. Prints
 * one JSON line with the addresses, then waits; SIGTERM stops everything and drops the database.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import { startKsefEmulator } from '@/emulators/ksef/server';
import { startNbpEmulator } from '@/emulators/nbp/server';
import { startSmtpSink } from '@/emulators/smtp/server';
import { startWooEmulator } from '@/emulators/woocommerce/server';
import { ROOT } from '@/server/config';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { migrateDatabase } from '@/server/db/migrate';
import { withDatabase } from '@/test/global-setup';
import { collect, freePort, startWeb, stopGroup, type RunningProcess } from '@/test/web';

const cleanups: (() => Promise<unknown>)[] = [];

async function main() {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const pg = await startEmbeddedPostgres(path.join(ROOT, '.data/pg-e2e'), await freePort());
    adminUrl = pg.adminUrl;
    cleanups.push(pg.stop);
  }
  const database = `kr_e2e_${randomBytes(5).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${database}`);
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists ${database} with (force)`);
    await admin.end();
  });
  const url = withDatabase(adminUrl, database);
  await migrateDatabase(url);

  const ksef = await startKsefEmulator({ port: 0, host: '127.0.0.1', limits: 'off', processingDelayMs: 200 });
  cleanups.push(ksef.close);
  const nbp = await startNbpEmulator({ port: 0, host: '127.0.0.1' });
  cleanups.push(nbp.close);
  const smtp = await startSmtpSink({ port: 0, httpPort: 0, host: '127.0.0.1' });
  cleanups.push(smtp.close);
  const woo = await startWooEmulator({ port: 0, host: '127.0.0.1' });
  cleanups.push(woo.close);

  const env = {
    DATABASE_URL: url,
    APP_SECRET: `e2e-${randomBytes(16).toString('hex')}`,
    KSEF_TEST_BASE_URL: ksef.url,
    KSEF_TIMEOUT_MS: '5000',
    NBP_BASE_URL: nbp.url,
    SMTP_URL: smtp.url,
    // the newcomer's webhook receiver in the e2e run listens on 127.0.0.1
    ALLOW_PRIVATE_TARGETS: '1',
    WEBHOOK_RETRY_TIME_SCALE: '0.01',
  };
  const web: RunningProcess = await startWeb(env);
  cleanups.unshift(web.stop);
  const worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env, PUBLIC_BASE_URL: web.url },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const workerOutput = collect(worker);
  cleanups.unshift(() => stopGroup(worker));
  // the last output of both processes, for reading after a failed run
  cleanups.unshift(async () => {
    mkdirSync(path.join(ROOT, 'e2e/artifacts'), { recursive: true });
    writeFileSync(path.join(ROOT, 'e2e/artifacts/stack.log'), `--- web\n${web.output()}\n--- worker\n${workerOutput()}\n`);
  });
  worker.on('exit', (code) => {
    if (!stopping) process.stderr.write(`worker exited (${code}):\n${workerOutput()}\n`);
  });
  process.stdout.write(`${JSON.stringify({ baseURL: web.url, ksef: ksef.url, smtp: smtp.httpUrl, woo: woo.url, database })}\n`);
}

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  for (const c of cleanups) await c().catch((err) => process.stderr.write(`cleanup: ${String(err)}\n`));
  process.exit(0);
}

process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
main().catch(async (err) => {
  process.stderr.write(`e2e stack failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  await stop();
  process.exit(1);
});
