import { randomBytes } from 'node:crypto';
import path from 'node:path';
import postgres from 'postgres';
import { createAccount } from '@/server/accounts/create-account';
import { ROOT } from '@/server/config';
import { createDb, type Db } from '@/server/db/client';
import { startEmbeddedPostgres } from '@/server/db/embedded';
import { migrateDatabase } from '@/server/db/migrate';
import { randomToken } from '@/server/ids';
import { withDatabase } from '@/test/global-setup';
import { startWeb } from '@/test/web';
import { startBareApp } from './bare-app';
import { cpuSpentMs, listBackendPids, takeCpuSnapshot, type CpuMeter } from './cpu';

export type BenchStack = {
  /** The web server's process group (next start and any child it forks). */
  webPid: number;
  /** Base URL of the production Next.js server. */
  url: string;
  /** Base URL of the bare baseline app (bench/bare-app), whose GET /bench/bare answers `{}`. */
  bareUrl: string;
  /** Test-mode API keys, one per account. */
  keys: string[];
  databaseUrl: string;
  /** The web server's APP_SECRET, for worker processes of the same stack. */
  appSecret: string;
  db: Db;
  /** Starts counting the CPU of the web server and the database's backends; the returned function stops. */
  startCpuMeter: CpuMeter;
  stop: () => Promise<void>;
};

const SELLER = { nip: '5260250274', name: 'Sklep Benchmarkowy sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' };
const EMBEDDED_PORT = 54349;

/**
 * A throw-away database with `accounts` accounts made through createAccount, `next start` from the current build
 * (as test/web.ts starts it, keeping the process id for CPU figures), and the bare baseline app beside it
 * (bench/lib/bare-app.ts). DATABASE_URL names the server to use (its database is only used to create and drop
 * ours); without it an embedded cluster under .data/pg-bench runs.
 */
export async function startBenchStack(options: { accounts: number; env?: Record<string, string> }): Promise<BenchStack> {
  const cleanups: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((err) => console.error('bench cleanup:', err));
  };
  try {
    const { url, name, db, stop: dropDatabase } = await createBenchDatabase();
    cleanups.push(dropDatabase);
    const keys = await createKeys(db, options.accounts);
    // Sealing (idempotent answers, credentials) needs a secret; a run of its own gets a fresh one.
    const appSecret = process.env.APP_SECRET ?? randomToken(256);
    // BENCH_WEB_CPU_PROF=dir: the web server writes a V8 CPU profile there when it stops
    const profile = process.env.BENCH_WEB_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_WEB_CPU_PROF)}`] : [];
    const web = await startWeb({ ...options.env, DATABASE_URL: url, APP_SECRET: appSecret }, profile);
    cleanups.push(web.stop);
    const bare = await startBareApp();
    cleanups.push(bare.stop);
    // Both servers count as "web": the one not under load adds next to nothing.
    const webPids = [web.pid, bare.pid];
    const snapshot = async () => ({ web: takeCpuSnapshot(webPids), postgres: takeCpuSnapshot(await listBackendPids(db, name)) });
    const startCpuMeter: CpuMeter = async () => {
      const before = await snapshot();
      return async () => {
        const after = await snapshot();
        return { webMs: cpuSpentMs(before.web, after.web), postgresMs: cpuSpentMs(before.postgres, after.postgres) };
      };
    };
    return { url: web.url, bareUrl: bare.url, webPid: web.pid, keys, databaseUrl: url, appSecret, db, startCpuMeter, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * A throw-away migrated database and a pool on it (8 connections): on DATABASE_URL's server, else on an embedded
 * cluster under .data/pg-bench. `stop` ends the pool, drops the database and stops an embedded cluster.
 */
export async function createBenchDatabase(): Promise<{ url: string; name: string; db: Db; stop: () => Promise<void> }> {
  let adminUrl = process.env.DATABASE_URL;
  let stopPg = async () => {};
  if (!adminUrl) {
    const pg = await startEmbeddedPostgres(path.join(ROOT, '.data/pg-bench'), EMBEDDED_PORT);
    adminUrl = pg.adminUrl;
    stopPg = pg.stop;
  }
  const name = `kr_bench_${randomBytes(6).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = withDatabase(adminUrl, name);
  await migrateDatabase(url);
  const db = createDb(url, { max: 8 });
  const stop = async () => {
    await db.$client.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    await stopPg();
  };
  return { url, name, db, stop };
}

/** Accounts are made 8 at a time; each gives its test key (live mode stays disabled, as for a new account). */
async function createKeys(db: Db, count: number): Promise<string[]> {
  const keys: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const account = await createAccount(db, { email: `bench-${i}@example.test`, seller: SELLER });
        keys.push(account.testKey);
      }
    }),
  );
  return keys;
}
