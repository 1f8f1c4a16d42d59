import { sql } from 'drizzle-orm';
import type { Tx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { DocumentKind } from '@/server/db/schema';

export type Series = 'FV' | 'KOR';

export const seriesOf = (kind: DocumentKind): Series => (kind === 'invoice' ? 'FV' : 'KOR');

/** `FV/2026/11/7`: the one place the number format lives. */
export const formatNumber = (series: Series, period: string, n: number): string => `${series}/${period.replace('-', '/')}/${n}`;

/** `2026-11` from a Warsaw issue date `2026-11-21`. */
export const periodOf = (issueDate: string): string => issueDate.slice(0, 7);

/**
 * The next number of a series and month (invariant 1). The upsert locks the counter row until the caller's
 * transaction ends, so concurrent numbering queues up and a rolled-back transaction gives its number back.
 */
export async function takeNextNumber(tx: Tx, scope: Scope, series: Series, period: string): Promise<number> {
  const [row] = await tx.execute<{ value: number }>(sql`
    insert into number_counters (account_id, mode, series, period, value)
    values (${scope.accountId}, ${scope.mode}, ${series}, ${period}, 1)
    on conflict (account_id, mode, series, period) do update set value = number_counters.value + 1
    returning value`);
  return row!.value;
}
