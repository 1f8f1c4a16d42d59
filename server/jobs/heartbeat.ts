import { sql } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db, DbOrTx } from '@/server/db/client';
import { textArray } from '@/server/db/text-array';

/**
 * Liveness of worker processes. A process beats every WORKER_HEARTBEAT_MS with the graphile-worker ids it locks
 * jobs under; one that has not beaten for WORKER_DEAD_AFTER_SECONDS is taken as dead (SIGKILL, lost machine).
 */
export async function beat(db: Db, processId: string, graphileWorkerIds: string[]): Promise<void> {
  await db.execute(sql`
    insert into worker_heartbeats (worker_id, info) values (${processId}, ${JSON.stringify({ graphileWorkerIds })}::jsonb)
    on conflict (worker_id) do update set last_seen = now(), info = excluded.info`);
}

/** graphile-worker's own release of the jobs locked under the given ids, and the worker locks held under them. */
export async function unlockWorkers(db: DbOrTx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    with keys as (delete from worker_locks where holder = any(${textArray(ids)}))
    select graphile_worker.force_unlock_workers(${textArray(ids)})`);
}

/**
 * graphile-worker keeps the jobs and queues of a pool that went away locked for hours; releasing them is what
 * makes "a crash or a stop loses no work" hold. Two kinds are released: the ids of processes whose heartbeat
 * stopped, and any lock held (for longer than the dead-after time) under an id that no heartbeat names, which is
 * what a process leaves when it exited without releasing (a stop whose last release failed). Returns the ids.
 * The second kind scans every locked job (no index covers locked_by: 20 ms with a few thousand queued jobs), so
 * callers ask for it less often than they beat (`orphans`); such a lock is only released after the dead-after time.
 */
export async function releaseDeadWorkers(db: Db, { orphans = true }: { orphans?: boolean } = {}): Promise<string[]> {
  const deadAfter = config().WORKER_DEAD_AFTER_SECONDS;
  // one transaction: a dead process's row is gone only with its locks, else its ids would be named by nobody
  return db.transaction(async (tx) => {
    const dead = await tx.execute<{ worker_id: string; ids: string[] }>(sql`
      delete from worker_heartbeats where last_seen < now() - make_interval(secs => ${deadAfter})
      returning worker_id, coalesce(array(select jsonb_array_elements_text(info->'graphileWorkerIds')), '{}') as ids`);
    const unnamed = !orphans
      ? []
      : await tx.execute<{ locked_by: string }>(sql`
      with live as (
        select jsonb_array_elements_text(info->'graphileWorkerIds') as id from worker_heartbeats
      ), locks as (
        select locked_by, locked_at from graphile_worker._private_jobs where locked_by is not null
        union all
        select holder, taken_at from worker_locks
      )
      select distinct locked_by from locks
      where locked_at < now() - make_interval(secs => ${deadAfter}) and locked_by not in (select id from live)`);
    const ids = [...new Set([...dead.flatMap((d) => d.ids), ...unnamed.map((o) => o.locked_by)])];
    await unlockWorkers(tx, ids);
    return ids;
  });
}

export async function forget(db: Db, processId: string): Promise<void> {
  await db.execute(sql`delete from worker_heartbeats where worker_id = ${processId}`);
}

/**
 * A job locked for over 30 s under one of this process's live ids while it does not run here: a fetch whose answer
 * a dropped connection lost (the job was locked, the runner never saw it). Nobody else releases such a lock, since
 * the id is alive; the runtime replaces the runner, whose ids are then released.
 */
export async function findLeakedLock(db: Db, ids: string[], runningJobIds: string[]): Promise<string | undefined> {
  if (ids.length === 0) return undefined;
  const [row] = await db.execute<{ what: string }>(sql`
    select 'job ' || id as what from graphile_worker._private_jobs
    where locked_by = any(${textArray(ids)}) and locked_at < now() - interval '30 seconds'
      and not (id::text = any(${textArray(runningJobIds)}))
    limit 1`);
  return row?.what;
}
