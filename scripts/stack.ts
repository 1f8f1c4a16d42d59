import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../server/config';
import { createAccount } from '../server/accounts/create-account';
import { createDb } from '../server/db/client';
import { DATA_DIR, locateDatabase } from '../server/db/locate';
import { migrateDatabase } from '../server/db/migrate';
import { randomToken } from '../server/ids';

/**
 * `npm run dev` / `npm start`: database, migrations, emulators, web and worker in one command.
 * Ctrl-C stops every child (each runs in its own process group, so next-server and tsx children go too).
 */
const production = process.argv.includes('--production');
const port = Number(process.env.PORT ?? 3000);
const children: { name: string; proc: ChildProcess }[] = [];
let stopping = false;

function log(line: string) {
  process.stdout.write(`[stack] ${line}\n`);
}

function appSecret(): string {
  if (process.env.APP_SECRET) return process.env.APP_SECRET;
  const file = path.join(DATA_DIR, 'app-secret');
  if (!existsSync(file)) writeFileSync(file, randomToken(256), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

function start(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const proc = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  children.push({ name, proc });
  proc.on('exit', (code, signal) => {
    if (stopping) return;
    log(`${name} exited (${signal ?? code}); stopping the stack`);
    void shutdown(1);
  });
  return proc;
}

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
  await stopDatabase();
  log('stopped');
  process.exit(code);
}

async function ensureDemoAccount(url: string): Promise<void> {
  const db = createDb(url, { max: 1 });
  try {
    const [row] = await db.execute<{ n: number }>(`select count(*)::int as n from accounts`);
    const demoFile = path.join(DATA_DIR, 'demo-account.json');
    if ((row?.n ?? 0) === 0) {
      const demo = await createAccount(db, {
        email: 'demo@ksef-relay.local',
        password: 'demo-password',
        seller: { nip: '5260250274', name: 'Sklep Demo sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' },
      });
      writeFileSync(demoFile, JSON.stringify({ account: demo.accountId, test_key: demo.testKey, email: 'demo@ksef-relay.local', password: 'demo-password' }, null, 2));
      log(`demo account created: ${demo.accountId}`);
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
  const located = await locateDatabase({ reuseRunning: false });
  stopDatabase = located.stop;
  log(located.embedded ? `embedded PostgreSQL: ${located.url}` : 'PostgreSQL from DATABASE_URL');
  await migrateDatabase(located.url);
  log('migrations applied');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: located.url,
    APP_SECRET: appSecret(),
    PORT: String(port),
    NEXT_TELEMETRY_DISABLED: '1',
  };
  await ensureDemoAccount(located.url);
  const next = path.join(ROOT, 'node_modules/next/dist/bin/next');
  if (production) {
    log('building the web app (next build)…');
    await run(process.execPath, [next, 'build'], env);
    start('web', process.execPath, [next, 'start', '-p', String(port)], { ...env, NODE_ENV: 'production' });
  } else {
    start('web', process.execPath, [next, 'dev', '-p', String(port)], env);
  }
  start('worker', process.execPath, ['--import', 'tsx', 'worker/main.ts'], env);
  log(`dashboard: http://localhost:${port}/dashboard   API: http://localhost:${port}/v1   errors: http://localhost:${port}/docs/errors`);
}

main().catch(async (err) => {
  console.error(err);
  await shutdown(1);
});
