import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { run, type Runner, type WorkerEvents } from 'graphile-worker';
import { describeError } from '@/server/db/describe-error';
import { graphileLogger, withQueueSettings } from './graphile-connection';
import type { RuntimeState } from './runtime-state';
import type { WorkerRuntimeOptions } from './worker-runtime-options';

/** Waits between attempts to reach the database: 0.5 s doubling up to 15 s. */
export const reconnectDelayMs = (attempt: number): number => Math.min(15_000, 500 * 2 ** attempt);

export const stopRunner = async (o: Pick<WorkerRuntimeOptions, 'warn'>, runner: Runner): Promise<void> => {
  await runner.stop().catch((err: unknown) => o.warn('worker: job runner stopped with an error', err));
};

/** Starts a graphile-worker runner whose pool and worker ids are pushed to `ids` as they are made. */
async function startRunner(
  o: WorkerRuntimeOptions,
  ids: string[],
  fetchGuard: () => string[] | null | Promise<string[] | null>,
  restart: (reason: string) => void,
): Promise<Runner> {
  // graphile-worker's start fails outright without a database; wait here instead
  await o.db.execute(sql`select 1`);
  const events: WorkerEvents = new EventEmitter();
  // recorded before run() returns: jobs are locked under the pool's id (batched fetch) or a worker's id
  events.on('pool:create', ({ workerPool }) => {
    ids.push(workerPool.id);
    // graphile-worker (0.17) has no option for it: its listener calls the pool's nudge for every notification
    if (o.wakeOnNewJobs === false) workerPool.nudge = () => {};
  });
  events.on('worker:create', ({ worker }) => ids.push(worker.workerId));
  events.on('pool:fatalError', ({ error }) => restart(`pool error: ${String(error)}`));
  o.observe?.(events);
  return run({
    events,
    connectionString: o.plannerOptions === false ? o.connectionString : withQueueSettings(o.connectionString),
    concurrency: o.concurrency,
    taskList: o.taskList,
    crontab: o.crontab,
    forbiddenFlags: fetchGuard,
    noHandleSignals: true,
    pollInterval: o.pollInterval ?? 1_000,
    logger: graphileLogger(o),
    preset: { worker: { gracefulShutdownAbortTimeout: o.shutdownTimeoutMs } },
  });
}

/** Resolves with the reason the runner is to be replaced: it ended, failed, or `interrupt` was called. */
function replacementReason(s: RuntimeState, runner: Runner): Promise<string> {
  return new Promise<string>((resolve) => {
    s.interrupt = resolve;
    runner.promise.then(
      () => resolve('the job runner ended'),
      (err: unknown) => resolve(`the job runner failed: ${String(err)}`),
    );
  });
}

/** Waits `delay` ms, or until `wake` is called. */
async function pause(s: RuntimeState, delay: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const t = setTimeout(resolve, delay);
    s.wake = () => {
      clearTimeout(t);
      resolve();
    };
  });
  s.wake = undefined;
}

/**
 * Keeps one runner running until the runtime stops: starts one when the database answers, and replaces it when it
 * fails or is interrupted (its ids retired, to be released once none of their jobs runs here).
 */
export async function runRunners(
  o: WorkerRuntimeOptions,
  s: RuntimeState,
  fetchGuard: () => string[] | null | Promise<string[] | null>,
  restart: (reason: string) => void,
): Promise<void> {
  for (let attempt = 0; !s.stopping;) {
    const ids: string[] = [];
    s.starting = ids;
    try {
      const runner = await startRunner(o, ids, fetchGuard, restart);
      s.current = { runner, ids };
      if (attempt > 0) o.log(`worker: connected after ${attempt} failed attempts`);
      attempt = 0;
      o.log('worker: running');
      if (s.stopping) return;
      const reason = await replacementReason(s, runner);
      s.interrupt = undefined;
      if (s.stopping) return;
      o.warn(`worker: replacing the job runner (${reason})`);
      await stopRunner(o, runner);
      s.current = undefined;
      s.retired.push(...ids);
    } catch (err) {
      s.retired.push(...ids);
      const delay = reconnectDelayMs(attempt++);
      o.warn(`worker: cannot start the job runner (attempt ${attempt}), retrying in ${delay} ms: ${describeError(err)}`);
      await pause(s, delay);
    }
  }
}
