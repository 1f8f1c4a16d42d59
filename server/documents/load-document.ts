import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { DbOrTx, Tx } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import type { DocumentRow } from './document-row';

/** Each column's property and its SQL name (the client's `casing: 'snake_case'` names the columns without one). */
const COLUMNS = Object.entries(getTableColumns(documents)).map(([key, column]) => ({ key, column, name: column.keyAsName ? toSnakeCase(key) : column.name }));
/**
 * The select list built once: drizzle builds a 50-column selection anew for every query (and every `returning()`:
 * 75 µs of the 97 µs a status change's update took to build), a few ms per document.
 */
export const DOCUMENT_COLUMN_LIST = COLUMNS.map((c) => `"${c.name}"`).join(', ');
export const DOCUMENT_COLUMNS = sql.raw(DOCUMENT_COLUMN_LIST);

/**
 * A `documents` row read with raw SQL, shaped as drizzle's select shapes it: each column's own driver mapping
 * (timestamps to Dates, bigints to numbers, JSON parsed). Columns the query added beyond the table's are dropped.
 */
export function documentFromSql(raw: Record<string, unknown>): DocumentRow {
  const out: Record<string, unknown> = {};
  for (const { key, column, name } of COLUMNS) {
    const value = raw[name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as DocumentRow;
}

export async function loadDocument(db: DbOrTx, id: string): Promise<DocumentRow | undefined> {
  const [raw] = await db.execute<Record<string, unknown>>(sql`select ${DOCUMENT_COLUMNS} from documents where id = ${id}`);
  return raw && documentFromSql(raw);
}

/** Documents matching `where`, a drizzle condition on `documents` (scope it: invariant 5), in `orderBy`'s order, at most `limit`. */
export async function selectDocuments(db: DbOrTx, where: SQL | undefined, orderBy?: SQL, limit?: number): Promise<DocumentRow[]> {
  const rows = await db.execute<Record<string, unknown>>(
    sql`select ${DOCUMENT_COLUMNS} from ${documents} where ${where ?? sql`false`}${orderBy ? sql` order by ${orderBy}` : sql``}${limit === undefined ? sql`` : sql` limit ${limit}`}`,
  );
  return rows.map(documentFromSql);
}

/** The document with its row lock, inside the caller's transaction. */
export async function lockDocument(tx: Tx, id: string): Promise<DocumentRow | undefined> {
  const [raw] = await tx.execute<Record<string, unknown>>(sql`select ${DOCUMENT_COLUMNS} from documents where id = ${id} for update`);
  return raw && documentFromSql(raw);
}
