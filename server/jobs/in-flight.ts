/**
 * Job executions still running in this process, by job and by the graphile-worker id that locked them.
 * graphile-worker's stop gives up on a running job after its abort timeout, but the job's code goes on; releasing
 * that id's locks then would let a second execution of the same job (or of its seller's queue) run beside it. So
 * an id is released only once nothing runs under it, and a lock under a live id with nothing running is a leak.
 */
type Execution = { jobId: string; lockedBy: string | null; queueId: number | null };
const running = new Set<Execution>();

export async function trackExecution<T>(job: { id: string; locked_by: string | null; job_queue_id: number | null }, run: () => Promise<T>): Promise<T> {
  const execution = { jobId: job.id, lockedBy: job.locked_by, queueId: job.job_queue_id };
  running.add(execution);
  try {
    return await run();
  } finally {
    running.delete(execution);
  }
}

export const isRunningUnder = (workerId: string): boolean => [...running].some((e) => e.lockedBy === workerId);

/** Ids of the jobs, and of their queues, that run in this process now. */
export function runningJobs(): { jobIds: string[]; queueIds: number[] } {
  const all = [...running];
  return { jobIds: all.map((e) => e.jobId), queueIds: all.flatMap((e) => (e.queueId === null ? [] : [e.queueId])) };
}
