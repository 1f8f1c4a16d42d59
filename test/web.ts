import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from '@/server/config';

export type RunningProcess = { url: string; port: number; pid: number; stop: () => Promise<void>; output: () => string };

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export const NEXT_BIN = path.join(ROOT, 'node_modules/next/dist/bin/next');

/** The production Next.js server (`next start`, from the build `npm test` makes first) on its own port and database. */
export async function startWeb(env: Record<string, string>, nodeArgs: string[] = []): Promise<RunningProcess> {
  if (!existsSync(path.join(ROOT, '.next/BUILD_ID'))) throw new Error('no Next.js build: run `npm run build` (npm test does it first)');
  return startNext({ readyPath: '/docs/errors', env: (url) => ({ PUBLIC_BASE_URL: url, ...env }), nodeArgs });
}

/** `next start [appDir]` in production mode on a free port, ready once `readyPath` answers 2xx (within 30 s). */
export async function startNext(o: {
  appDir?: string;
  readyPath: string;
  env?: (url: string) => Record<string, string>;
  /** Options of node itself (`--cpu-prof`: NODE_OPTIONS does not take it). */
  nodeArgs?: string[];
}): Promise<RunningProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, [...(o.nodeArgs ?? []), NEXT_BIN, 'start', ...(o.appDir ? [o.appDir] : []), '-p', String(port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...o.env?.(url) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = collect(proc);
  const stop = () => stopGroup(proc);
  try {
    await waitFor(
      async () => (await fetch(`${url}${o.readyPath}`).catch(() => null))?.ok === true,
      30_000,
      () => output(),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, pid: proc.pid!, stop, output };
}

export function collect(proc: ChildProcess): () => string {
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  proc.stderr?.on('data', (c: Buffer) => (out = (out + c.toString()).slice(-20_000)));
  return () => out;
}

export async function stopGroup(proc: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', killAfterMs = 5_000): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  try {
    process.kill(-proc.pid, signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-proc.pid!, 'SIGKILL');
    } catch {}
  }, killAfterMs);
  await exited;
  clearTimeout(timer);
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, describe: () => string = () => ''): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms\n${describe()}`);
}
