import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { DocumentStatus } from '@/server/db/schema';

export type DayCounts = { day: string; counts: Partial<Record<DocumentStatus, number>> };

/**
 * Documents created per Europe/Warsaw day over the last `days` days (today included), by current status; days
 * without documents are present with empty counts so the chart has a fixed width.
 */
export async function listDocumentsPerDay(db: DbOrTx, scope: Scope, days = 30): Promise<DayCounts[]> {
  const rows = await db.execute<{ day: string; status: DocumentStatus | null; n: number }>(sql`
    with span as (
      select generate_series((now() at time zone 'Europe/Warsaw')::date - ${days - 1}::int, (now() at time zone 'Europe/Warsaw')::date, interval '1 day')::date as day
    )
    select to_char(span.day, 'YYYY-MM-DD') as day, d.status, count(d.id)::int as n
    from span
    left join documents d
      on d.account_id = ${scope.accountId} and d.mode = ${scope.mode}
     and (d.created_at at time zone 'Europe/Warsaw')::date = span.day
     and d.created_at >= now() - make_interval(days => ${days + 1}::int)
    group by span.day, d.status
    order by span.day`);
  const byDay = new Map<string, DayCounts>();
  for (const r of rows) {
    const entry = byDay.get(r.day) ?? { day: r.day, counts: {} };
    if (r.status) entry.counts[r.status] = r.n;
    byDay.set(r.day, entry);
  }
  return [...byDay.values()];
}
