import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { events } from '@/server/db/schema';

/** The events recorded for one document of the scope, oldest first, as delivered. */
export async function listDocumentEvents(db: DbOrTx, scope: Scope, documentId: string) {
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt, body: events.body })
    .from(events)
    .where(and(inScope(events, scope), eq(events.documentId, documentId)))
    .orderBy(asc(events.seq));
  return rows.map((r) => ({ id: r.id, type: r.type, createdAt: r.createdAt, payload: JSON.parse(r.body) as unknown }));
}
