import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { DocumentRow } from './document-row';
import { selectDocuments } from './load-document';

const missing = (id: string) => new AppError('resource_missing', 'id', `No such document: ${id}.`);

/** A document of the scope; another account's or mode's looks exactly like a missing one (invariant 5). */
export async function getDocument(db: DbOrTx, scope: Scope, id: string): Promise<DocumentRow> {
  const [doc] = await selectDocuments(db, and(inScope(documents, scope), eq(documents.id, id)));
  if (!doc) throw missing(id);
  return doc;
}

/** A document of the scope with its corrections, oldest first (none for a correction), read in one statement. */
export async function getDocumentWithCorrections(db: DbOrTx, scope: Scope, id: string): Promise<{ doc: DocumentRow; corrections: DocumentRow[] }> {
  const rows = await selectDocuments(
    db,
    and(inScope(documents, scope), or(eq(documents.id, id), and(eq(documents.invoiceId, id), eq(documents.kind, 'correction')))),
    asc(documents.seq),
  );
  const doc = rows.find((r) => r.id === id);
  if (!doc) throw missing(id);
  return { doc, corrections: rows.filter((r) => r !== doc) };
}

/** Corrections of the given invoices, oldest first, grouped by invoice id. */
export async function correctionsOf(db: DbOrTx, scope: Scope, invoiceIds: string[]): Promise<Map<string, DocumentRow[]>> {
  const byInvoice = new Map<string, DocumentRow[]>();
  if (invoiceIds.length === 0) return byInvoice;
  const rows = await selectDocuments(
    db,
    and(inScope(documents, scope), eq(documents.kind, 'correction'), inArray(documents.invoiceId, invoiceIds)),
    asc(documents.seq),
  );
  for (const row of rows) {
    const list = byInvoice.get(row.invoiceId!) ?? [];
    list.push(row);
    byInvoice.set(row.invoiceId!, list);
  }
  return byInvoice;
}
