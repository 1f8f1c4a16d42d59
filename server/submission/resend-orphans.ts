import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { jobKey } from '@/server/jobs/registry';

/**
 * Safety net for "a fault loses nothing": a document waiting in queued after "KSeF did not answer" always has a
 * send job; one that has had none for a minute (a job lost to a crash or a race) gets it back. Documents waiting
 * for credentials or for their original have other codes and are woken by those events, not here.
 */
export async function resendOrphans(db: Db): Promise<number> {
  const orphans = await db.execute<{ id: string; account_id: string; mode: 'test' | 'live' }>(sql`
    select d.id, d.account_id, d.mode from documents d
    where d.status = 'queued' and d.last_error->>'code' = 'ksef_unavailable' and d.updated_at < now() - interval '1 minute'
      and not exists (select 1 from graphile_worker.jobs j where j.key = 'send:' || d.id)
    limit 500`);
  for (const o of orphans) {
    const payload = { documentId: o.id, accountId: o.account_id, mode: o.mode };
    if (jobKey('ksef_send', payload) !== `send:${o.id}`) throw new Error('resendOrphans: the send job key changed; update the query');
    await db.transaction((tx) => enqueue(tx, 'ksef_send', payload));
  }
  return orphans.length;
}
