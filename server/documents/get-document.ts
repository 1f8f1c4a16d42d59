import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import type { DocumentRow } from './document-row';
import { DOCUMENT_COLUMN_LIST, documentFromSql, selectDocuments } from './load-document';

const missing = (id: string) => new AppError('resource_missing', 'id', `No such document: ${id}.`);

/** A document of the scope; another account's or mode's looks exactly like a missing one (invariant 5). */
export async function getDocument(db: DbOrTx, scope: Scope, id: string): Promise<DocumentRow> {
  const [doc] = await selectDocuments(db, and(inScope(documents, scope), eq(documents.id, id)));
  if (!doc) throw missing(id);
  return doc;
}

/**
 * GET /v1/invoices/{id}'s read as one named prepared statement of fixed text: a drizzle condition built per request
 * and planned by PostgreSQL on every execution cost more CPU than the read itself.
 */
const WITH_CORRECTIONS = `select ${DOCUMENT_COLUMN_LIST} from documents
where account_id = $1 and mode = $2::mode and (id = $3 or (invoice_id = $3 and kind = 'correction'))
order by seq`;

/** A document of the scope with its corrections, oldest first (none for a correction), read in one statement. */
export async function getDocumentWithCorrections(db: Db, scope: Scope, id: string): Promise<{ doc: DocumentRow; corrections: DocumentRow[] }> {
  const rows = (await db.$client.unsafe(WITH_CORRECTIONS, [scope.accountId, scope.mode, id], { prepare: true })).map(documentFromSql);
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
