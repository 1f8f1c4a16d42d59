import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/** Every task of the worker, by name (plain identifiers: graphile-worker's folder rules, DESIGN.md). */
export const TASK_NAMES = ['document_prepare', 'ksef_send', 'ksef_status', 'ksef_batch_status', 'plan_release', 'pdf_render', 'mail_send', 'webhook_deliver', 'ksef_check', 'maintenance'] as const;
export type TaskName = (typeof TASK_NAMES)[number];

export type JobOptions = { runAt?: Date; jobKey?: string; queueName?: string; maxAttempts?: number; priority?: number };

/**
 * Adds a job inside the caller's transaction (invariant 2): the job exists exactly when the state change that
 * needs it committed.
 */
export async function enqueue(tx: DbOrTx, task: TaskName, payload: Record<string, unknown>, o: JobOptions = {}): Promise<void> {
  await tx.execute(sql`select graphile_worker.add_job(
    ${task}::text,
    ${JSON.stringify(payload)}::json,
    queue_name := ${o.queueName ?? null}::text,
    run_at := ${o.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts := ${o.maxAttempts ?? 25}::int,
    job_key := ${o.jobKey ?? null}::text,
    priority := ${o.priority ?? 0}::int
  )`);
}
