import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { workerLocks } from '@/server/db/schema';
import { textArray } from '@/server/db/text-array';

/** Keys being taken, held or released in this process now: one entry per step. */
const held = new Set<{ key: string }>();
const heldKeys = (): string[] => [...new Set([...held].map((e) => e.key))];

/**
 * Runs `run` holding `key` across every worker process, or answers { ran: false } at once when another job holds
 * it. The holder is the graphile-worker id the job runs under, so a key is released with that worker's jobs when
 * its process dies or its runner is replaced (heartbeat.ts), and a key this process lost track of is released by
 * its own heartbeat (releaseLeakedWorkerLocks).
 */
export async function underWorkerLock<T>(db: Db, key: string, holder: string, run: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const entry = { key };
  held.add(entry);
  try {
    const taken = await db.insert(workerLocks).values({ key, holder }).onConflictDoNothing().returning({ key: workerLocks.key });
    if (taken.length === 0) return { ran: false };
    try {
      return { ran: true, value: await run() };
    } finally {
      await db.execute(sql`delete from worker_locks where key = ${key} and holder = ${holder}`);
    }
  } finally {
    held.delete(entry);
  }
}

/**
 * Keys held under this process's ids that no step here holds: their release failed (the database was away). Only
 * keys older than 30 s are deleted, so that a key taken after `held` was read for this statement is left alone.
 */
export async function releaseLeakedWorkerLocks(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const keys = heldKeys();
  await db.execute(sql`
    delete from worker_locks where holder = any(${textArray(ids)}) and taken_at < now() - interval '30 seconds'
      and key <> all(${textArray(keys)})`);
}

/** How old the list of other processes' keys may be when a fetch asks for it. */
const BUSY_REFRESH_MS = 200;

/**
 * graphile-worker's `forbiddenFlags`: the keys held now, so that a fetch skips the jobs flagged with a busy key
 * (the registry's `lock`) instead of running them only to find the key taken; with one seller's hundreds of
 * documents due, every worker slot would otherwise spin on them. This process's keys are exact, other processes'
 * are read at most every BUSY_REFRESH_MS, in the background: a fetch never waits for it, and a stale list only
 * costs a job that finds the key taken and runs again later.
 */
export function busyLockFlags(db: Db): () => string[] {
  let others: string[] = [];
  let readAt = 0;
  let reading = false;
  return () => {
    if (!reading && Date.now() - readAt >= BUSY_REFRESH_MS) {
      reading = true;
      db.execute<{ key: string }>(sql`select key from worker_locks`)
        .then((rows) => {
          others = rows.map((r) => r.key);
          readAt = Date.now();
        })
        .catch(() => {}) // the database away: the jobs themselves find out and run again
        .finally(() => (reading = false));
    }
    return [...new Set([...others, ...heldKeys()])];
  };
}
