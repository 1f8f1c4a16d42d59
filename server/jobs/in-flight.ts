/**
 * Job executions still running in this process, by the graphile-worker id that locked them. graphile-worker's
 * stop gives up on a running job after its abort timeout, but the job's code goes on; releasing that id's locks
 * then would let a second execution of the same job (or of its seller's queue) run beside it, and an add_job of
 * the same key would update the unlocked row in place, which the first execution's completion then deletes: a
 * lost job. So an id is released only once nothing runs under it.
 */
const running = new Map<string, number>();

export async function trackExecution<T>(lockedBy: string | null, run: () => Promise<T>): Promise<T> {
  if (!lockedBy) return run();
  running.set(lockedBy, (running.get(lockedBy) ?? 0) + 1);
  try {
    return await run();
  } finally {
    const left = running.get(lockedBy)! - 1;
    if (left) running.set(lockedBy, left);
    else running.delete(lockedBy);
  }
}

export const isRunningUnder = (workerId: string): boolean => running.has(workerId);
