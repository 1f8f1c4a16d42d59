import './check-config-first';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { and, eq } from 'drizzle-orm';
import { config, resetConfig, ROOT } from '@/server/config';
import { createAccount } from '@/server/accounts/create-account';
import { createDb } from '@/server/db/client';
import { DATA_DIR, locateDatabase } from '@/server/db/locate';
import { migrateDatabase } from '@/server/db/migrate';
import { connectToEmulator, reconnectEmulatorScopes } from '@/server/ksef-connection/emulator-credentials';
import { connectStore } from '@/server/stores/connect';
import { syncStore } from '@/server/stores/sync';
import { storeConnections } from '@/server/db/schema';
import { WORKER_PROCESSES } from '@/server/jobs/process-layout';
import { loadAppSecret, writeStackFile } from './stack-file';
import { restartAfter } from './restart-policy';

/**
 * `npm run dev` / `npm start`: database, migrations, emulators, web and worker in one command.
 * Ctrl-C stops every child (each runs in its own process group, so next-server and tsx children go too).
 */
const production = process.argv.includes('--production');
const port = config().PORT;
const children: { name: string; proc: ChildProcess }[] = [];
let stopping = false;

function log(line: string) {
  process.stdout.write(`[stack] ${line}\n`);
}

const PIDS_FILE = path.join(DATA_DIR, 'stack-pids.json');

/**
 * A runner killed with SIGKILL leaves its children running (each has its own process group so that Ctrl-C can
 * stop next-server's own children). Their group ids are kept on disk; the next start stops what is left.
 */
async function stopOrphans(): Promise<void> {
  if (!existsSync(PIDS_FILE)) return;
  const groups = JSON.parse(readFileSync(PIDS_FILE, 'utf8')) as number[];
  const alive = groups.filter((pid) => {
    try {
      process.kill(-pid, 'SIGTERM');
      return true;
    } catch {
      return false;
    }
  });
  if (alive.length) log(`stopped ${alive.length} process group(s) left by a previous run`);
  for (let i = 0; i < 50 && alive.some(groupAlive); i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of alive.filter(groupAlive)) process.kill(-pid, 'SIGKILL');
  rmSync(PIDS_FILE, { force: true });
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const proc = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  const child = { name, proc };
  children.push(child);
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(PIDS_FILE, JSON.stringify(children.map((c) => c.proc.pid).filter(Boolean)));
  const startedAt = Date.now();
  proc.on('exit', (code, signal) => {
    if (stopping) return;
    // one crashed child must not take down the others: it comes back after a back-off that grows while it keeps
    // crashing, and the rest of the stack keeps serving meanwhile
    const crashes = crashCounts.get(name) ?? 0;
    const { delayMs, crashesInARow } = restartAfter(crashes, Date.now() - startedAt);
    crashCounts.set(name, crashesInARow);
    log(`${name} exited (${signal ?? code}); restarting it in ${Math.round(delayMs / 1000)} s`);
    setTimeout(() => {
      if (stopping) return;
      children.splice(children.indexOf(child), 1);
      start(name, command, args, env);
    }, delayMs);
  });
  return proc;
}

const crashCounts = new Map<string, number>();

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd: ROOT, env, stdio: 'inherit' });
    proc.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

let stopDatabase: () => Promise<void> = async () => {};

async function shutdown(code: number) {
  if (stopping) return;
  stopping = true;
  log('stopping…');
  await Promise.all(
    children.map(
      ({ proc }) =>
        new Promise<void>((resolve) => {
          if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return resolve();
          proc.once('exit', () => resolve());
          try {
            process.kill(-proc.pid, 'SIGTERM');
          } catch {
            resolve();
          }
          setTimeout(() => {
            try {
              process.kill(-proc.pid!, 'SIGKILL');
            } catch {}
          }, 8_000).unref();
        }),
    ),
  );
  // a group outlives its leader while grandchildren (next start's next-server) finish: wait, then make sure
  const groups = children.map((c) => c.proc.pid).filter((pid): pid is number => !!pid);
  for (let i = 0; i < 80 && groups.some(groupAlive); i++) await new Promise((r) => setTimeout(r, 100));
  for (const pid of groups.filter(groupAlive)) process.kill(-pid, 'SIGKILL');
  await stopDatabase();
  rmSync(PIDS_FILE, { force: true });
  log('stopped');
  process.exit(code);
}

/** Waits until a local emulator answers on its port (they print nothing we need to parse). */
async function waitForHttp(url: string, name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not start at ${url}`);
}

/** The local emulators, unless their URL settings point elsewhere (e.g. the real KSeF test environment). */
async function startEmulators(env: NodeJS.ProcessEnv): Promise<{ ksef?: string; woo: string }> {
  const tsx = (file: string, extra: Record<string, string>) =>
    start(file, process.execPath, ['--import', 'tsx', file], { ...env, ...extra } as NodeJS.ProcessEnv);
  const wooPort = config().WOOCOMMERCE_EMULATOR_PORT;
  tsx('emulators/woocommerce/main.ts', {
    WOOCOMMERCE_EMULATOR_PORT: String(wooPort),
    WOOCOMMERCE_EMULATOR_KEY: DEMO_STORE_KEY,
    WOOCOMMERCE_EMULATOR_SECRET: DEMO_STORE_SECRET,
  });
  const out: { ksef?: string; woo: string } = { woo: `http://127.0.0.1:${wooPort}` };
  await waitForHttp(`${out.woo}/__control`, 'WooCommerce emulator');
  if (!process.env.KSEF_TEST_BASE_URL) {
    const port = config().KSEF_EMULATOR_PORT;
    tsx('emulators/ksef/main.ts', { KSEF_EMULATOR_PORT: String(port) });
    env.KSEF_TEST_BASE_URL = `http://127.0.0.1:${port}/v2`;
    // the emulator's status service (Latarnia), unless KSEF_STATUS_URL is set, even empty (not read)
    env.KSEF_STATUS_URL ??= `http://127.0.0.1:${port}/latarnia`;
    out.ksef = env.KSEF_TEST_BASE_URL;
    await waitForHttp(`http://127.0.0.1:${port}/v2/security/public-key-certificates`, 'KSeF emulator');
  }
  if (!process.env.NBP_BASE_URL) {
    const port = config().NBP_EMULATOR_PORT;
    tsx('emulators/nbp/main.ts', { NBP_EMULATOR_PORT: String(port) });
    env.NBP_BASE_URL = `http://127.0.0.1:${port}/api`;
    await waitForHttp(`${env.NBP_BASE_URL}/exchangerates/tables/a/`, 'NBP emulator');
  }
  if (!process.env.SMTP_URL) {
    const port = config().SMTP_SINK_PORT;
    const httpPort = config().SMTP_SINK_HTTP_PORT;
    tsx('emulators/smtp/main.ts', { SMTP_SINK_PORT: String(port), SMTP_SINK_HTTP_PORT: String(httpPort) });
    env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    await waitForHttp(`http://127.0.0.1:${httpPort}/messages`, 'SMTP sink');
    log(`mail sink: http://127.0.0.1:${httpPort}/messages`);
  }
  return out;
}

const DEMO_EMAIL = 'demo@ksef-relay.local';
/** The emulated shop's REST key (its state lives in memory, so the same key is created at every start). */
const DEMO_STORE_KEY = 'ck_demo_ksef_relay_emulated_shop';
const DEMO_STORE_SECRET = 'cs_demo_ksef_relay_emulated_shop';

/**
 * The demo account's test mode is connected to the emulated WooCommerce shop. The emulator forgets its webhooks on
 * restart, so a store connected earlier is reconciled, which re-creates them (as it would for a real shop).
 */
async function ensureDemoStore(url: string, woo: string): Promise<void> {
  const demoFile = path.join(DATA_DIR, 'demo-account.json');
  if (!existsSync(demoFile)) return;
  const { account } = JSON.parse(readFileSync(demoFile, 'utf8')) as { account: string };
  const db = createDb(url, { max: 2 });
  try {
    const [store] = await db
      .select()
      .from(storeConnections)
      .where(and(eq(storeConnections.accountId, account), eq(storeConnections.mode, 'test'), eq(storeConnections.status, 'connected')));
    const id = store
      ? store.id
      : (await connectStore(db, { accountId: account, mode: 'test' }, { url: woo, consumerKey: DEMO_STORE_KEY, consumerSecret: DEMO_STORE_SECRET })).store;
    if (store) await syncStore(db, store.id);
    log(`demo store ${id}: emulated WooCommerce at ${woo}; place a paid B2B order with`);
    log(`  curl -X POST ${woo}/__control/orders -H 'content-type: application/json' -d '{"nip":"3861610227","paid":true}'`);
    log(`  then curl ${woo}/__control/orders/<id from its answer> shows our note and _ksef_* meta once the invoice is accepted`);
  } catch (err) {
    log(`demo store not connected: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await db.$client.end();
  }
}

async function ensureDemoAccount(url: string, emulator: string | undefined): Promise<void> {
  const db = createDb(url, { max: 1 });
  try {
    const demoFile = path.join(DATA_DIR, 'demo-account.json');
    const [row] = await db.execute<{ n: number }>(sql`select count(*)::int as n from users where email = ${DEMO_EMAIL}`);
    if ((row?.n ?? 0) === 0) {
      const demo = await createAccount(db, {
        email: DEMO_EMAIL,
        password: 'demo-password',
        seller: { nip: '5260250274', name: 'Sklep Demo sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' },
      });
      writeFileSync(demoFile, JSON.stringify({ account: demo.accountId, test_key: demo.testKey, email: DEMO_EMAIL, password: 'demo-password' }, null, 2));
      log(`demo account created: ${demo.accountId}`);
      if (emulator) await connectToEmulator(db, { accountId: demo.accountId, mode: 'test' }, emulator);
    } else if (emulator) {
      const n = await reconnectEmulatorScopes(db, emulator);
      if (n) log(`KSeF emulator: re-issued test credentials for ${n} account(s)`);
    }
    if (existsSync(demoFile)) {
      const demo = JSON.parse(readFileSync(demoFile, 'utf8')) as { test_key: string; email: string; password: string };
      log(`demo sign-in: ${demo.email} / ${demo.password}`);
      log(`demo test API key: ${demo.test_key}`);
    }
  } finally {
    await db.$client.end();
  }
}

async function main() {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  await stopOrphans();
  const located = await locateDatabase({ reuseRunning: false });
  stopDatabase = located.stop;
  log(located.embedded ? `embedded PostgreSQL: ${located.url}` : 'PostgreSQL from DATABASE_URL');
  await migrateDatabase(located.url);
  log('migrations applied');
  // the local stack is a developer's machine (DESIGN.md "Processes"): the emulated shop and a developer's webhook
  // receiver are on loopback, so test mode may reach private addresses here, in this process and in its children
  process.env.ALLOW_PRIVATE_TARGETS ??= '1';
  resetConfig();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: located.url,
    APP_SECRET: loadAppSecret(),
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: '1',
    // /metrics answers 404 without a token: the local stack makes one per start and prints it below
    METRICS_TOKEN: process.env.METRICS_TOKEN ?? randomBytes(24).toString('base64url'),
  };
  const emulators = await startEmulators(env);
  writeStackFile({
    KSEF_TEST_BASE_URL: env.KSEF_TEST_BASE_URL,
    NBP_BASE_URL: env.NBP_BASE_URL,
    SMTP_URL: env.SMTP_URL,
    ALLOW_PRIVATE_TARGETS: env.ALLOW_PRIVATE_TARGETS,
  });
  process.env.KSEF_TEST_BASE_URL = env.KSEF_TEST_BASE_URL;
  resetConfig();
  await ensureDemoAccount(located.url, emulators.ksef);
  const next = path.join(ROOT, 'node_modules/next/dist/bin/next');
  if (production) {
    if (config().STACK_SKIP_BUILD !== '1') {
      log('building the web app (next build)…');
      await run(process.execPath, [next, 'build'], env);
    }
    // the compiled worker of `npm run start:worker` (fast to build, so always fresh)
    await run(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/build-server.ts')], env);
    start('web', process.execPath, [next, 'start', '-p', String(port)], { ...env, NODE_ENV: 'production' });
  } else {
    start('web', process.execPath, [next, 'dev', '-p', String(port)], env);
  }
  // the production entry points (dist/worker.mjs), or their source through tsx in development
  const worker = production ? [path.join(ROOT, 'dist/worker.mjs')] : ['--import', 'tsx', 'worker/main.ts'];
  for (const [name, workerEnv] of Object.entries(WORKER_PROCESSES)) start(name, process.execPath, worker, { ...env, ...workerEnv });
  await waitForHttp(`http://127.0.0.1:${port}/docs/errors`, 'web');
  await ensureDemoStore(located.url, emulators.woo);
  log(`dashboard: http://localhost:${port}/dashboard   API: http://localhost:${port}/v1   errors: http://localhost:${port}/docs/errors`);
  log(`metrics: curl -H 'Authorization: Bearer ${env.METRICS_TOKEN}' http://localhost:${port}/metrics`);
}

main().catch(async (err) => {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await shutdown(1);
});
