/**
 * Job executions still running in this process, by job and by the graphile-worker id that locked them.
 * graphile-worker's stop gives up on a running job after its abort timeout, but the job's code goes on; releasing
 * that id's locks then would let a second execution of the same job run beside it. So an id is released only once
 * nothing runs under it, and a lock under a live id with nothing running is a leak.
 */
type Execution = { jobId: string; task: string; lockedBy: string | null; startedAt: number; reported: boolean };
const running = new Set<Execution>();

export async function trackExecution<T>(
  job: { id: string; task_identifier: string; locked_by: string | null },
  run: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const execution = { jobId: job.id, task: job.task_identifier, lockedBy: job.locked_by, startedAt: now(), reported: false };
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

/**
 * Executions running for longer than `ms`, each named once. Every step's outside calls have time-outs (KSeF,
 * SMTP, webhooks, database connects), so one this old is most likely stuck on a promise that never settles; its
 * job stays locked under a live id, which no heartbeat releases, and only an operator's look finds it.
 */
export function overdueExecutions(ms: number, now = Date.now()): { jobId: string; task: string; seconds: number }[] {
  const overdue = [...running].filter((e) => !e.reported && now - e.startedAt > ms);
  for (const e of overdue) e.reported = true;
  return overdue.map((e) => ({ jobId: e.jobId, task: e.task, seconds: Math.round((now - e.startedAt) / 1000) }));
}
