import type { Job } from 'graphile-worker';
import { reportFailure } from '@/server/observability/failures';

const reported = new WeakSet<object>();

/**
 * A job's failure, reported once, by the task wrapper, whose log context holds the job's ids: `job_failed` while
 * graphile-worker will run it again, `job_gave_up` on its last attempt. graphile-worker's own line about the same
 * error is then left out (isReportedJobFailure), so each failure is one line at the right level.
 */
export function reportJobFailure(job: Pick<Job, 'attempts' | 'max_attempts'>, err: unknown): void {
  const last = job.attempts >= job.max_attempts;
  reportFailure(last ? 'job_gave_up' : 'job_failed', { err, attempt: job.attempts, maxAttempts: job.max_attempts });
  if (typeof err === 'object' && err !== null) reported.add(err);
}

/** Whether the task wrapper reported this error (graphile-worker wraps a thrown non-Error as the cause of its own). */
export function isReportedJobFailure(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  return reported.has(err) || (err instanceof Error && typeof err.cause === 'object' && err.cause !== null && reported.has(err.cause));
}
