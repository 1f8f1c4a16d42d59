import { isDriverWriteAfterClose } from '@/server/db/faults';
import { hasJobLock } from './registry';
import { startHeartbeat } from './runtime-heartbeat';
import { startReleaseLoop } from './runtime-release-loop';
import { runRunners } from './runtime-runner-loop';
import { shutDown } from './runtime-shutdown';
import { heldIds, type RuntimeState } from './runtime-state';
import { busyLockFlags } from './worker-locks';
import type { WorkerRuntimeOptions } from './worker-runtime-options';

export type { WorkerRuntimeOptions } from './worker-runtime-options';

export type WorkerRuntime = {
  /** Finishes or releases every job this process holds, then forgets its heartbeat. */
  stop: () => Promise<void>;
  /** Replaces the job runner (its jobs finish, its locks are released): what a lost connection calls for. */
  restart: (reason: string) => void;
};

/**
 * A worker process that outlives its database: graphile-worker runners are started when the database answers and
 * replaced when one fails (a terminated connection makes graphile-worker's job completion reject outside any
 * await, and its pool cannot recover the jobs it held). A replaced runner is stopped first, so none of its jobs
 * still runs, then the ids it locked under are released on the next heartbeat that reaches the database; until
 * then they stay listed in the heartbeat, so no other process releases them early. The process itself never exits
 * because the database went away.
 */
export function startWorkerRuntime(o: WorkerRuntimeOptions): WorkerRuntime {
  const s: RuntimeState = { stopping: false, current: undefined, starting: [], retired: [] };
  const restart = (reason: string) => {
    if (!s.stopping) s.interrupt?.(reason);
  };
  // only a process that runs a task with a worker lock reads and releases worker locks (the PDF worker never does)
  const takesLocks = Object.keys(o.taskList).some(hasJobLock);
  const heartbeat = startHeartbeat(o, () => heldIds(s), takesLocks ? busyLockFlags(o.db) : undefined);
  const releaseLoop = startReleaseLoop(o, s, takesLocks, restart);
  const looping = runRunners(o, s, heartbeat.fetchGuard, restart);
  watchProcessFaults(o, restart);
  return { restart, stop: () => shutDown(o, s, looping, heartbeat, releaseLoop) };
}

/**
 * graphile-worker completes and fails jobs without awaiting the query: with the connection gone, that rejection
 * surfaces here. The runner is replaced so that the job it could not complete is released and runs again.
 */
function watchProcessFaults(o: Pick<WorkerRuntimeOptions, 'warn' | 'error'>, restart: (reason: string) => void): void {
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
}
