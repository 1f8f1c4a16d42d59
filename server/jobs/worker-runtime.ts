import { EventEmitter } from 'node:events';
import { sql } from 'drizzle-orm';
import { Logger, run, type Runner, type TaskList, type WorkerEvents } from 'graphile-worker';
import { config } from '@/server/config';
import { createDb, type Db } from '@/server/db/client';
import { describeError } from '@/server/db/describe-error';
import { isDatabaseUnavailable, isDriverWriteAfterClose } from '@/server/db/faults';
import { beat, findLeakedLock, forget, releaseDeadWorkers, unlockWorkers } from './heartbeat';
import { isRunningUnder, overdueExecutions, runningJobIds } from './in-flight';
import { isReportedJobFailure } from './job-failure';
import { hasJobLock } from './registry';
import { busyLockFlags, releaseLeakedWorkerLocks } from './worker-locks';

export type WorkerRuntimeOptions = {
  db: Db;
  connectionString: string;
  taskList: TaskList;
  crontab?: string;
  concurrency: number;
  /** How often an idle worker looks for due jobs (ms); without wakeOnNewJobs this is how soon it sees a new one. */
  pollInterval?: number;
  /**
   * false: the process ignores graphile-worker's "jobs:insert" notifications and only polls. Every job added by any
   * process notifies every worker process, so a process that runs few of the tasks (the PDF worker: one job in six
   * of a document) would otherwise look, find nothing, for nearly every job the others run.
   */
  wakeOnNewJobs?: boolean;
  /**
   * false: graphile-worker's connections start without `withQueueSettings`' options, for a pooler that refuses the
   * `options` startup parameter.
   */
  plannerOptions?: boolean;
  /** Sees each job runner's graphile-worker events (tests count its looks for jobs). */
  observe?: (events: WorkerEvents) => void;
  processId: string;
  heartbeatMs: number;
  /** How long a stopping runner waits for its running jobs before graphile-worker fails them. */
  shutdownTimeoutMs: number;
  /** The runtime's own lines and graphile-worker's, by level: info for normal flow, warn for what is retried, error. */
  log: (line: string) => void;
  warn: (line: string, err?: unknown) => void;
  error: (line: string, err?: unknown) => void;
  /** A job running this long is named by `warn` once (overdueExecutions); no step of ours should take 2 minutes. */
  overdueJobMs?: number;
};

export type WorkerRuntime = {
  /** Finishes or releases every job this process holds, then forgets its heartbeat. */
  stop: () => Promise<void>;
  /** Replaces the job runner (its jobs finish, its locks are released): what a lost connection calls for. */
  restart: (reason: string) => void;
};

/** Waits between attempts to reach the database: 0.5 s doubling up to 15 s. */
export const reconnectDelayMs = (attempt: number): number => Math.min(15_000, 500 * 2 ** attempt);

/**
 * A worker process that outlives its database: graphile-worker runners are started when the database answers and
 * replaced when one fails (a terminated connection makes graphile-worker's job completion reject outside any
 * await, and its pool cannot recover the jobs it held). A replaced runner is stopped first, so none of its jobs
 * still runs, then the ids it locked under are released on the next heartbeat that reaches the database; until
 * then they stay listed in the heartbeat, so no other process releases them early. The process itself never exits
 * because the database went away.
 */
export function startWorkerRuntime(o: WorkerRuntimeOptions): WorkerRuntime {
  let stopping = false;
  let current: { runner: Runner; ids: string[] } | undefined;
  let starting: string[] = [];
  const retired: string[] = [];
  let interrupt: ((reason: string) => void) | undefined;
  let wake: (() => void) | undefined;

  // only a process that runs a task with a worker lock reads and releases worker locks (the PDF worker never does)
  const takesLocks = Object.keys(o.taskList).some(hasJobLock);
  const forbiddenFlags = takesLocks ? busyLockFlags(o.db) : undefined;
  // The heartbeat has a connection and a timer of its own, quick to time out and renewed on any failure: a process
  // whose beats stop is taken as dead and its locks are released while its jobs may still run, so neither a pool
  // busy with jobs or broken by a lost server connection, nor the release work below (on that pool), may delay it.
  const newBeatDb = () => createDb(o.connectionString, { max: 1, connectTimeoutSeconds: 3 });
  let beatDb = newBeatDb();
  const ids = () => [...(current?.ids ?? starting), ...retired];
  /** Ids a committed beat has named: only their jobs may be fetched (an unnamed id's locks are anybody's to free). */
  const named = new Set<string>();
  let beating: Promise<void> | undefined;
  // one beat at a time, so that a beat never overwrites a later one's ids
  const beatOnce = (): Promise<void> =>
    (beating ??= (async () => {
      const naming = ids();
      await beat(beatDb, o.processId, naming).catch((err: unknown) => {
        if (!isDatabaseUnavailable(err)) throw err;
        void beatDb.$client.end({ timeout: 1 }).catch(() => {});
        beatDb = newBeatDb();
        return beat(beatDb, o.processId, naming);
      });
      for (const id of naming) named.add(id);
    })().finally(() => (beating = undefined)));
  /** A beat that started after now: it names every id this process has now. */
  const announce = async () => {
    await beating?.catch(() => {});
    await beatOnce();
  };
  // graphile-worker asks for the forbidden flags before every fetch and awaits a promise: a new runner's first
  // fetch waits here until a beat names its id (a pool locks jobs under an id it made up on creation)
  const gatedFlags = () => (ids().every((id) => named.has(id)) ? (forbiddenFlags?.() ?? null) : announce().then(() => forbiddenFlags?.() ?? null));
  const tick = async () => {
    // an id whose job is still running here stays locked (and listed in the heartbeat) until that job ends
    const idle = retired.filter((id) => !isRunningUnder(id));
    if (idle.length > 0) {
      await unlockWorkers(o.db, idle);
      for (const id of idle) retired.splice(retired.indexOf(id), 1);
      o.log(`worker: released the jobs of replaced runner ${idle.join(', ')}`);
    }
    const scanOrphans = Date.now() - orphansScannedAt >= (config().WORKER_DEAD_AFTER_SECONDS * 1000) / 2;
    if (scanOrphans) orphansScannedAt = Date.now();
    const released = await releaseDeadWorkers(o.db, { orphans: scanOrphans });
    if (released.length) o.warn(`worker: released jobs of dead workers ${released.join(', ')}`);
    // seen on two ticks in a row, so that a job finishing just now is not taken for a leak
    const leak = current && !stopping ? await findLeakedLock(o.db, current.ids, runningJobIds()) : undefined;
    if (leak && leak === lastLeak) restart(`${leak} is locked under this runner but not running`);
    lastLeak = leak;
    if (takesLocks) await releaseLeakedWorkerLocks(o.db, ids());
  };
  const reportOverdue = () => {
    for (const e of overdueExecutions(o.overdueJobMs ?? 120_000)) o.warn(`worker: job ${e.jobId} (${e.task}) has been running for ${e.seconds} s`);
  };
  let lastLeak: string | undefined;
  let orphansScannedAt = 0;
  let beatFailures = 0;
  let ticking = false;
  const beatTimer = setInterval(() => {
    if (beating) return; // a beat against an unreachable database can outlast the interval
    beatOnce().then(
      () => {
        if (beatFailures > 0) o.log(`worker: database reachable again after ${beatFailures} failed heartbeats`);
        beatFailures = 0;
      },
      (err) => {
        if (beatFailures++ === 0) o.warn('worker: heartbeat failed, retrying', err);
      },
    );
  }, o.heartbeatMs);
  const timer = setInterval(() => {
    reportOverdue();
    // a tick against an unreachable database can outlast the interval: never two at once
    if (ticking) return;
    ticking = true;
    tick()
      .finally(() => (ticking = false))
      .catch((err: unknown) => {
        if (!isDatabaseUnavailable(err)) o.warn('worker: releasing locks failed', err);
      });
  }, o.heartbeatMs);

  const stopRunner = async (runner: Runner) => {
    await runner.stop().catch((err: unknown) => o.warn('worker: job runner stopped with an error', err));
  };

  const loop = async () => {
    for (let attempt = 0; !stopping;) {
      const ids: string[] = [];
      starting = ids;
      try {
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
        const runner = await run({
          events,
          connectionString: o.plannerOptions === false ? o.connectionString : withQueueSettings(o.connectionString),
          concurrency: o.concurrency,
          taskList: o.taskList,
          crontab: o.crontab,
          forbiddenFlags: gatedFlags,
          noHandleSignals: true,
          pollInterval: o.pollInterval ?? 1_000,
          logger: graphileLogger(o),
          preset: { worker: { gracefulShutdownAbortTimeout: o.shutdownTimeoutMs } },
        });
        current = { runner, ids };
        if (attempt > 0) o.log(`worker: connected after ${attempt} failed attempts`);
        attempt = 0;
        o.log('worker: running');
        if (stopping) return;
        const reason = await new Promise<string>((resolve) => {
          interrupt = resolve;
          runner.promise.then(
            () => resolve('the job runner ended'),
            (err: unknown) => resolve(`the job runner failed: ${String(err)}`),
          );
        });
        interrupt = undefined;
        if (stopping) return;
        o.warn(`worker: replacing the job runner (${reason})`);
        await stopRunner(runner);
        current = undefined;
        retired.push(...ids);
      } catch (err) {
        retired.push(...ids);
        const delay = reconnectDelayMs(attempt++);
        o.warn(`worker: cannot start the job runner (attempt ${attempt}), retrying in ${delay} ms: ${describeError(err)}`);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delay);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        wake = undefined;
      }
    }
  };
  const looping = loop();

  const restart = (reason: string) => {
    if (!stopping) interrupt?.(reason);
  };

  // graphile-worker completes and fails jobs without awaiting the query: with the connection gone, that rejection
  // surfaces here. The runner is replaced so that the job it could not complete is released and runs again.
  process.on('unhandledRejection', (reason) => {
    o.error('worker: unhandled rejection', reason);
    restart('an unhandled rejection');
  });
  process.on('uncaughtException', (err) => {
    if (isDriverWriteAfterClose(err)) {
      o.warn('worker: postgres.js wrote to a closed connection (porsager/postgres#1154); its query already failed');
      return;
    }
    o.error('worker: fatal', err);
    process.exit(1);
  });

  return {
    restart,
    stop: async () => {
      stopping = true;
      // the heartbeat goes on while running jobs finish, so that no other process takes this one for dead
      interrupt?.('stopping');
      wake?.();
      await looping;
      if (current) {
        await stopRunner(current.runner);
        retired.push(...current.ids);
        current = undefined;
      }
      // every job still locked under this process's ids is released now, once no job of theirs still
      // runs; if the database cannot be reached, the heartbeat row stays and a survivor releases them once it stops beating
      try {
        for (const t0 = Date.now(); retired.some(isRunningUnder) && Date.now() - t0 < o.shutdownTimeoutMs;) await new Promise((r) => setTimeout(r, 100));
        clearInterval(timer);
        clearInterval(beatTimer);
        while (ticking || beating) await new Promise((r) => setTimeout(r, 20));
        await beatDb.$client.end({ timeout: 1 }).catch(() => {});
        const idle = retired.filter((id) => !isRunningUnder(id));
        await unlockWorkers(o.db, idle);
        if (idle.length < retired.length) throw new Error('jobs still running after the shutdown timeout');
        await forget(o.db, o.processId);
      } catch (err) {
        clearInterval(timer);
        clearInterval(beatTimer);
        o.warn('worker: could not release jobs on stop; another worker will once this one stops beating', err);
      }
    },
  };
}

/**
 * graphile-worker's own connections (job fetch, completion, failure, cron; never a task's own statements) start with
 * three settings:
 * - No sequential scans. Its job fetch is a prepared statement whose plan PostgreSQL keeps per connection; made while
 *   the job table was small, it stayed a scan and sort of the whole table rather than the first due row of its
 *   `(priority, run_at)` index: 0.38 → 0.19 ms a fetch with a burst's queue (pg_stat_statements,
 *   bench/cost-per-document), and the scan grows with the queue. Every statement graphile-worker sends has an index
 *   made for it.
 * - No JIT: a statement left with no index to use still scans, at a cost inflated past the JIT threshold, and the
 *   fetch then spent 150 ms compiling on every call (measured).
 * - Commits without waiting for the WAL flush (`synchronous_commit=off`): a server crash can lose only the last
 *   fraction of a second of this bookkeeping, and every state it can fall back to is one graphile-worker and our
 *   tasks already survive: a lost completion runs a finished job again (every task is safe to run twice, DESIGN;
 *   each records its outside effect synchronously first, so only a webhook can go out twice, which spec 6.2 allows),
 *   a lost fetch leaves the job to be fetched again, a lost re-add (runAgainSoon) keeps the original job. Our
 *   tasks' own transactions, which carry numbers, submissions and claims, keep the server's synchronous commit,
 *   and WAL order means a lost async commit never outlives a later synchronous one. 14.2 → 9.4 WAL flushes per
 *   document in bench/cost-per-document; each saved flush is a disk sync a job no longer waits for.
 */
export function withQueueSettings(connectionString: string): string {
  const url = new URL(connectionString);
  url.searchParams.set('options', [url.searchParams.get('options'), '-c enable_seqscan=off -c jit=off -c synchronous_commit=off'].filter(Boolean).join(' '));
  return url.toString();
}

/**
 * graphile-worker's own lines at their own level: its `error` at error, its `warning` at warn; its info and debug
 * lines (a job started, a job completed) are left out, they would drown the rest. Its line about a job that threw
 * is left out when the task wrapper reported that failure with the job's ids (server/jobs/job-failure.ts).
 */
export function graphileLogger(o: Pick<WorkerRuntimeOptions, 'warn' | 'error'>): Logger {
  return new Logger(() => (level, message, meta) => {
    if (meta?.failure === true && isReportedJobFailure(meta.error)) return;
    if (level === 'error') o.error(`graphile-worker: ${message}`, meta?.error);
    else if (level === 'warning') o.warn(`graphile-worker: ${message}`, meta?.error);
  });
}
