import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** A worker process that has not beaten for this long is taken as dead (SIGKILL, lost machine). */
export const DEAD_AFTER_SECONDS = Number(process.env.WORKER_DEAD_AFTER_SECONDS ?? 15);

export async function beat(db: Db, processId: string, graphileWorkerIds: string[]): Promise<void> {
  await db.execute(sql`
    insert into worker_heartbeats (worker_id, info) values (${processId}, ${JSON.stringify({ graphileWorkerIds })}::jsonb)
    on conflict (worker_id) do update set last_seen = now(), info = excluded.info`);
}

/**
 * graphile-worker keeps a killed worker's jobs locked for hours; releasing them is what makes "a crash loses no
 * work" hold. Returns the graphile worker ids that were released.
 */
export async function releaseDeadWorkers(db: Db, unlock: (workerIds: string[]) => Promise<void>): Promise<string[]> {
  const dead = await db.execute<{ worker_id: string; ids: string[] }>(sql`
    delete from worker_heartbeats where last_seen < now() - make_interval(secs => ${DEAD_AFTER_SECONDS})
    returning worker_id, coalesce(array(select jsonb_array_elements_text(info->'graphileWorkerIds')), '{}') as ids`);
  const ids = dead.flatMap((d) => d.ids);
  if (ids.length > 0) await unlock(ids);
  return ids;
}

export async function forget(db: Db, processId: string): Promise<void> {
  await db.execute(sql`delete from worker_heartbeats where worker_id = ${processId}`);
}
