import { and, count, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { IN_FLIGHT_STATUSES } from '@/server/facts/document-statuses';

/** Documents of the scope not yet final, per in-flight status: the KSeF sending panel's queue depth. */
export async function getQueueDepth(db: DbOrTx, scope: Scope): Promise<{ pending: number; queued: number; sending: number; total: number }> {
  const rows = await db
    .select({ status: documents.status, n: count() })
    .from(documents)
    .where(and(inScope(documents, scope), inArray(documents.status, [...IN_FLIGHT_STATUSES])))
    .groupBy(documents.status);
  const depth = { pending: 0, queued: 0, sending: 0, total: 0 };
  for (const r of rows) {
    if (r.status === 'pending' || r.status === 'queued' || r.status === 'sending') depth[r.status] = r.n;
    depth.total += r.n;
  }
  return depth;
}
