import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { olderThanCursor, takePage, type Page, type PageQuery } from '@/server/db/keyset-page';
import { inScope, type Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import type { DocumentRow } from './document-row';
import { correctionsOf } from './get-document';

export type ListInvoicesQuery = PageQuery & { externalId?: string };

/**
 * Invoices newest first by `seq` (stable under equal timestamps), each with its corrections. A `starting_after` id
 * that is not an invoice of this scope is 404 resource_missing (server/db/keyset-page.ts).
 */
export async function listInvoices(db: DbOrTx, scope: Scope, q: ListInvoicesQuery): Promise<Page<{ invoice: DocumentRow; corrections: DocumentRow[] }>> {
  const invoices = and(inScope(documents, scope), eq(documents.kind, 'invoice'));
  const older = await olderThanCursor(db, documents, invoices, q.startingAfter, 'invoice');
  const rows = await db
    .select()
    .from(documents)
    .where(and(invoices, q.externalId !== undefined ? eq(documents.orderExternalId, q.externalId) : undefined, older))
    .orderBy(desc(documents.seq))
    .limit(q.limit + 1);
  const page = takePage(rows, q.limit);
  const corrections = await correctionsOf(
    db,
    scope,
    page.data.map((d) => d.id),
  );
  return { hasMore: page.hasMore, data: page.data.map((d) => ({ invoice: d, corrections: corrections.get(d.id) ?? [] })) };
}
