import { config } from '@/server/config';
import { isDatabaseUnavailable } from '@/server/db/faults';
import { findLeakedLock, releaseDeadWorkers, unlockWorkers } from './heartbeat';
import { isRunningUnder, overdueExecutions, runningJobIds } from './in-flight';
import { heldIds, type RuntimeState } from './runtime-state';
import { releaseLeakedWorkerLocks } from './worker-locks';
import type { WorkerRuntimeOptions } from './worker-runtime-options';

export type ReleaseLoop = { busy: () => boolean; stop: () => void };

/**
 * On every heartbeat interval: names jobs running overdue, releases the jobs of this process's replaced runners once
 * none of theirs runs here, the jobs of dead workers, and leaked worker locks; a job locked under the current runner
 * but not running asks for the runner to be replaced.
 */
export function startReleaseLoop(
  o: Pick<WorkerRuntimeOptions, 'db' | 'heartbeatMs' | 'overdueJobMs' | 'log' | 'warn'>,
  s: RuntimeState,
  takesLocks: boolean,
  restart: (reason: string) => void,
): ReleaseLoop {
  let lastLeak: string | undefined;
  let orphansScannedAt = 0;
  let ticking = false;
  const tick = async () => {
    // an id whose job is still running here stays locked (and listed in the heartbeat) until that job ends
    const idle = s.retired.filter((id) => !isRunningUnder(id));
    if (idle.length > 0) {
      await unlockWorkers(o.db, idle);
      for (const id of idle) s.retired.splice(s.retired.indexOf(id), 1);
      o.log(`worker: released the jobs of replaced runner ${idle.join(', ')}`);
    }
    const scanOrphans = Date.now() - orphansScannedAt >= (config().WORKER_DEAD_AFTER_SECONDS * 1000) / 2;
    if (scanOrphans) orphansScannedAt = Date.now();
    const released = await releaseDeadWorkers(o.db, { orphans: scanOrphans });
    if (released.length) o.warn(`worker: released jobs of dead workers ${released.join(', ')}`);
    // seen on two ticks in a row, so that a job finishing just now is not taken for a leak
    const leak = s.current && !s.stopping ? await findLeakedLock(o.db, s.current.ids, runningJobIds()) : undefined;
    if (leak && leak === lastLeak) restart(`${leak} is locked under this runner but not running`);
    lastLeak = leak;
    if (takesLocks) await releaseLeakedWorkerLocks(o.db, heldIds(s));
  };
  const timer = setInterval(() => {
    for (const e of overdueExecutions(o.overdueJobMs ?? 120_000)) o.warn(`worker: job ${e.jobId} (${e.task}) has been running for ${e.seconds} s`);
    // a tick against an unreachable database can outlast the interval: never two at once
    if (ticking) return;
    ticking = true;
    tick()
      .finally(() => (ticking = false))
      .catch((err: unknown) => {
        if (!isDatabaseUnavailable(err)) o.warn('worker: releasing locks failed', err);
      });
  }, o.heartbeatMs);
  return { busy: () => ticking, stop: () => clearInterval(timer) };
}
