import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { Logger, run, type Runner } from 'graphile-worker';
import { afterAll, beforeAll } from 'vitest';
import { startKsefEmulator } from '@/emulators/ksef/server';
import { createEmulatorControl, type EmulatorControl } from '@/emulators/ksef/control-client';
import { resetConfig, ROOT } from '@/server/config';
import type { Db } from '@/server/db/client';
import { documents, type DocumentStatus } from '@/server/db/schema';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { createDb } from '@/server/db/client';
import { createTaskList, selectTasks } from '@/worker/task-list';
import { busyLockFlags } from '@/server/jobs/worker-locks';
import { collect, stopGroup, waitFor } from './web';

/**
 * The KSeF emulator over HTTP (processing delay 0) with the service's test-mode base URL pointed at it, for a
 * test file that runs the real pipeline.
 */
export function useKsefEmulator(options: { limits?: 'off' | 'test' | 'prod' } = {}) {
  let emulator: Awaited<ReturnType<typeof startKsefEmulator>> | undefined;
  let control: EmulatorControl | undefined;
  beforeAll(async () => {
    emulator = await startKsefEmulator({ port: 0, host: '127.0.0.1', limits: options.limits ?? 'off', processingDelayMs: 0 });
    process.env.KSEF_TEST_BASE_URL = emulator.url;
    process.env.KSEF_TIMEOUT_MS = '3000';
    resetConfig();
    control = createEmulatorControl(emulator.url);
  });
  afterAll(() => emulator?.close());
  return {
    url: () => emulator!.url,
    control: () => control!,
    /** Gives the scope a fresh KSeF token of the emulator for the seller's NIP. */
    connect: async (db: Db, scope: { accountId: string; mode: 'test' | 'live' }, nip: string) => {
      const { token } = await control!.createCredentials(nip);
      await saveKsefCredential(db, scope, { kind: 'token', token });
    },
  };
}

/**
 * A real graphile-worker runner with the product's task list against the test database; `tasks` narrows it as
 * WORKER_TASKS does (`document_prepare,plan_release` or `-pdf_render,-mail_send`).
 */
export function useWorker(url: () => string, options: { tasks?: string } = {}) {
  let runner: Runner | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    db = createDb(url());
    runner = await run({
      connectionString: url(),
      taskList: selectTasks(createTaskList(db), options.tasks),
      forbiddenFlags: busyLockFlags(db),
      concurrency: 4,
      pollInterval: 100,
      noHandleSignals: true,
      logger: new Logger(() => (level, message) => {
        if (level === 'error') console.error(message);
      }),
      events: new EventEmitter(),
    });
  });
  afterAll(async () => {
    await runner?.stop();
    await db?.$client.end();
  });
}

export async function waitForStatus(db: Db, id: string, statuses: DocumentStatus[], timeoutMs = 20_000) {
  let last: DocumentStatus | undefined;
  await waitFor(
    async () => {
      const [doc] = await db.select({ status: documents.status }).from(documents).where(eq(documents.id, id));
      last = doc?.status;
      return !!last && statuses.includes(last);
    },
    timeoutMs,
    () => `document ${id} stayed ${last}`,
  );
  const [doc] = await db.select().from(documents).where(eq(documents.id, id));
  return doc!;
}

export async function timeline(db: Db, id: string): Promise<string[]> {
  const rows = await db.execute<{ to_status: string; code: string | null }>(
    sql`select to_status, error->>'code' as code from document_transitions where document_id = ${id} order by id`,
  );
  return rows.map((r) => (r.code ? `${r.to_status}:${r.code}` : r.to_status));
}

/**
 * Real worker processes (worker/main.ts) for crash tests, with liveness and back-off scaled down so a test takes
 * seconds; every process started is SIGKILLed after the file. `outputs()` keeps the output of all of them.
 */
export function useWorkerProcesses(url: () => string, ksefUrl: () => string, env: Record<string, string> = {}) {
  const started: { proc: ChildProcess; output: () => string }[] = [];
  afterAll(async () => {
    await Promise.all(started.map((w) => stopGroup(w.proc, 'SIGKILL')));
  });
  return {
    start: () => {
      const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'worker/main.ts')], {
        cwd: ROOT,
        env: {
          ...process.env,
          DATABASE_URL: url(),
          KSEF_TEST_BASE_URL: ksefUrl(),
          WORKER_HEARTBEAT_MS: '250',
          WORKER_DEAD_AFTER_SECONDS: '2',
          KSEF_RETRY_SCALE: '0.02',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const worker = { proc, output: collect(proc) };
      started.push(worker);
      return worker;
    },
    outputs: () => started.map((w) => w.output()),
  };
}
