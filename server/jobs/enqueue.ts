import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { JOBS, jobKey, jobQueue, parsePayload, type JobInput, type TaskName } from './registry';

export type JobOptions = { runAt?: Date; priority?: number };

/**
 * Adds a job inside the caller's transaction (invariant 2): the job exists exactly when the state change that
 * needs it committed. Key, queue and attempts come from the registry.
 */
export async function enqueue<T extends TaskName>(tx: DbOrTx, task: T, input: JobInput<T>, o: JobOptions = {}): Promise<void> {
  const payload = parsePayload(task, input);
  const def: { maxAttempts?: number } = JOBS[task];
  await tx.execute(sql`select graphile_worker.add_job(
    ${task}::text,
    ${JSON.stringify(payload)}::json,
    queue_name := ${jobQueue(task, payload) ?? null}::text,
    run_at := ${o.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts := ${def.maxAttempts ?? 25}::int,
    job_key := ${jobKey(task, payload)}::text,
    priority := ${o.priority ?? 0}::int
  )`);
}
