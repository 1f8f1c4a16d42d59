import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { inScope, type Scope } from '../db/scope';
import { events } from '../db/schema';
import { AppError } from '../errors';

export type ListEventsQuery = { limit: number; startingAfter?: string; type?: string };

/**
 * Events of the scope newest first (spec 4.11), as recorded: `data.object` is the document at the time of the
 * event, not now. A `starting_after` that is no event of this scope is `404 resource_missing`, as for invoices.
 */
export async function listEvents(db: DbOrTx, scope: Scope, q: ListEventsQuery): Promise<{ hasMore: boolean; events: unknown[] }> {
  let beforeSeq: number | undefined;
  if (q.startingAfter) {
    const [cursor] = await db
      .select({ seq: events.seq })
      .from(events)
      .where(and(inScope(events, scope), eq(events.id, q.startingAfter)));
    if (!cursor) throw new AppError('resource_missing', 'starting_after', `No such event: ${q.startingAfter}.`);
    beforeSeq = cursor.seq;
  }
  const rows = await db
    .select({ body: events.body })
    .from(events)
    .where(
      and(
        inScope(events, scope),
        q.type !== undefined ? eq(events.type, q.type) : undefined,
        beforeSeq !== undefined ? lt(events.seq, beforeSeq) : undefined,
      ),
    )
    .orderBy(desc(events.seq))
    .limit(q.limit + 1);
  return { hasMore: rows.length > q.limit, events: rows.slice(0, q.limit).map((r) => JSON.parse(r.body) as unknown) };
}
