import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { ZDocumentFilters, ZDocumentSort } from './document-filters';
import { documentFilter, documentListColumns, documentOrder } from './search-documents';

export const ZExportDocuments = ZDocumentFilters.merge(ZDocumentSort);

/** A CSV export's bound: a year of a busy shop; past it the owner narrows the date range. */
export const EXPORT_LIMIT = 200_000;

/** Every document the dashboard's filters select, in the table's order (no paging). */
export async function listDocumentsForExport(db: DbOrTx, scope: Scope, raw: unknown) {
  const input = ZExportDocuments.parse(raw);
  return db
    .select(documentListColumns)
    .from(documents)
    .where(documentFilter(scope, input))
    .orderBy(...documentOrder(input))
    .limit(EXPORT_LIMIT);
}
