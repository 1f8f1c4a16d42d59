import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { inScope, type Scope } from '../db/scope';
import { documents } from '../db/schema';
import { AppError } from '../errors';
import type { DocumentRow } from './document-row';
import { correctionsOf } from './get-document';

export type ListInvoicesQuery = { limit: number; startingAfter?: string; externalId?: string };

/**
 * Invoices newest first by `seq` (stable under equal timestamps). A `starting_after` id that is not an invoice
 * of this scope is refused with 404 resource_missing (param `starting_after`): silently restarting from the top
 * would make a client loop or skip documents.
 */
export async function listInvoices(db: DbOrTx, scope: Scope, q: ListInvoicesQuery) {
  let beforeSeq: number | undefined;
  if (q.startingAfter) {
    const [cursor] = await db
      .select({ seq: documents.seq })
      .from(documents)
      .where(and(inScope(documents, scope), eq(documents.kind, 'invoice'), eq(documents.id, q.startingAfter)));
    if (!cursor) throw new AppError('resource_missing', 'starting_after', `No such invoice: ${q.startingAfter}.`);
    beforeSeq = cursor.seq;
  }
  const rows = await db
    .select()
    .from(documents)
    .where(
      and(
        inScope(documents, scope),
        eq(documents.kind, 'invoice'),
        q.externalId !== undefined ? eq(documents.orderExternalId, q.externalId) : undefined,
        beforeSeq !== undefined ? lt(documents.seq, beforeSeq) : undefined,
      ),
    )
    .orderBy(desc(documents.seq))
    .limit(q.limit + 1);
  const page: DocumentRow[] = rows.slice(0, q.limit);
  const corrections = await correctionsOf(db, scope, page.map((d) => d.id));
  return { hasMore: rows.length > q.limit, invoices: page.map((d) => ({ invoice: d, corrections: corrections.get(d.id) ?? [] })) };
}
