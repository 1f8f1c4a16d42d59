import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { olderThanCursor, takePage, type Page, type PageQuery } from '@/server/db/keyset-page';
import { inScope, type Scope } from '@/server/db/scope';
import { events } from '@/server/db/schema';

export type ListEventsQuery = PageQuery & { type?: string };

/**
 * Events of the scope newest first (spec 4.11), as recorded: `data.object` is the document at the time of the
 * event, not now. A `starting_after` that is no event of this scope is `404 resource_missing`, as for invoices.
 */
export async function listEvents(db: DbOrTx, scope: Scope, q: ListEventsQuery): Promise<Page<unknown>> {
  const older = await olderThanCursor(db, events, inScope(events, scope), q.startingAfter, 'event');
  const rows = await db
    .select({ body: events.body })
    .from(events)
    .where(and(inScope(events, scope), q.type !== undefined ? eq(events.type, q.type) : undefined, older))
    .orderBy(desc(events.seq))
    .limit(q.limit + 1);
  return takePage(
    rows.map((r) => JSON.parse(r.body) as unknown),
    q.limit,
  );
}
