import { and, eq, lt, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { AppError } from '@/server/errors';
import type { DbOrTx } from './client';

/** One page of a list, newest first (spec 4.12): `hasMore` says whether a next page exists. */
export type Page<T> = { hasMore: boolean; data: T[] };

/** A page request: at most `limit` rows after (older than) the row whose id is `startingAfter`. */
export type PageQuery = { limit: number; startingAfter?: string };

type SeqTable = PgTable & { id: PgColumn; seq: PgColumn };

/**
 * The keyset condition `seq < cursor's seq` for a page after `startingAfter`, or undefined for the first page. The
 * cursor must be a row that `within` allows (the same scope and filter as the list): an id that is not is refused
 * with 404 resource_missing, param `starting_after`, because silently restarting from the top would make a client
 * loop or skip rows.
 */
export async function olderThanCursor(
  db: DbOrTx,
  table: SeqTable,
  within: SQL | undefined,
  startingAfter: string | undefined,
  noun: string,
): Promise<SQL | undefined> {
  if (!startingAfter) return undefined;
  const [cursor] = await db
    .select({ seq: table.seq })
    .from(table)
    .where(and(within, eq(table.id, startingAfter)));
  if (!cursor) throw new AppError('resource_missing', 'starting_after', `No such ${noun}: ${startingAfter}.`);
  return lt(table.seq, cursor.seq);
}

/** Rows fetched with `.limit(limit + 1)` as a page: the extra row only tells that there is more. */
export function takePage<T>(rows: readonly T[], limit: number): Page<T> {
  return { hasMore: rows.length > limit, data: rows.slice(0, limit) };
}
