/**
 * Job executions still running in this process, by job and by the graphile-worker id that locked them.
 * graphile-worker's stop gives up on a running job after its abort timeout, but the job's code goes on; releasing
 * that id's locks then would let a second execution of the same job run beside it. So an id is released only once
 * nothing runs under it, and a lock under a live id with nothing running is a leak.
 */
type Execution = { jobId: string; lockedBy: string | null };
const running = new Set<Execution>();

export async function trackExecution<T>(job: { id: string; locked_by: string | null }, run: () => Promise<T>): Promise<T> {
  const execution = { jobId: job.id, lockedBy: job.locked_by };
  running.add(execution);
  try {
    return await run();
  } finally {
    running.delete(execution);
  }
}

export const isRunningUnder = (workerId: string): boolean => [...running].some((e) => e.lockedBy === workerId);

/** Ids of the jobs that run in this process now. */
export const runningJobIds = (): string[] => [...running].map((e) => e.jobId);
