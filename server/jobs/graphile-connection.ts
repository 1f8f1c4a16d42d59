import { Logger } from 'graphile-worker';
import { isReportedJobFailure } from './job-failure';
import type { WorkerRuntimeOptions } from './worker-runtime-options';

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
