import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { textArray } from '@/server/db/text-array';
import { isLaneJob, JOBS, jobKey, jobLock, parsePayload, type JobInput, type TaskName } from './registry';

export type JobOptions = { runAt?: Date; priority?: number };

/**
 * Adds a job inside the caller's transaction (invariant 2): the job exists exactly when the state change that
 * needs it committed. Key, lock flag and attempts come from the registry. A job that goes with no state change (a
 * re-poll) is added on `db` directly: it is one statement.
 *
 * A waiting job of the same key is removed and a new row added, never updated in place: graphile-worker completes
 * a job by deleting its row by id, so a job that re-enqueues its own key after its lock was released (a runner
 * given up on while its code still ran) would otherwise see its successor deleted by its own completion. A
 * running job of the key keeps running, without its key and without retries (graphile-worker's rule).
 *
 * A lane job (registry `lane`) is not added when a job of its key waits, never fetched yet (attempts 0: not a
 * runner's own row released under it), due no later: that job does the same work, and a burst of one seller adds
 * one row per lane run instead of one per document.
 *
 * The SQL function enqueue_job (migration 0023) does this in one call, holding a lock on the key until the
 * transaction ends: two steps of a lane enqueueing its job at once would otherwise leave a dead row (see there).
 */
export async function enqueue<T extends TaskName>(tx: DbOrTx, task: T, input: JobInput<T>, o: JobOptions = {}): Promise<void> {
  const payload = parsePayload(task, input);
  const def: { maxAttempts?: number } = JOBS[task];
  const key = jobKey(task, input);
  const lock = jobLock(task, input);
  const runAt = o.runAt?.toISOString() ?? null;
  await tx.execute(sql`select enqueue_job(
    ${task}::text, ${JSON.stringify(payload)}::json, ${runAt}::timestamptz, ${def.maxAttempts ?? 25}::int, ${key}::text,
    ${o.priority ?? 0}::int, ${lock ? textArray([lock]) : null}::text[], ${isLaneJob(task)}::boolean
  )`);
}
