import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** Starts e2e/stack.ts (own database, emulators, web, worker) and hands its addresses to the tests via env. */
export default async function globalSetup() {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'e2e/stack.ts'], { stdio: ['ignore', 'pipe', 'inherit'], detached: true, env: process.env });
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout! });
    lines.once('line', (line) => resolve(JSON.parse(line) as Record<string, string>));
    proc.once('exit', (code) => reject(new Error(`e2e stack exited with ${code} before it was ready`)));
  });
  proc.stdout!.resume();
  process.env.E2E_BASE_URL = ready.baseURL;
  process.env.E2E_KSEF_URL = ready.ksef;
  process.env.E2E_WOO_URL = ready.woo;
  process.env.E2E_SMTP_URL = ready.smtp;
  return async () => {
    const exited = new Promise<void>((r) => proc.once('exit', () => r()));
    if (proc.exitCode === null) process.kill(-proc.pid!, 'SIGTERM');
    await exited;
  };
}
