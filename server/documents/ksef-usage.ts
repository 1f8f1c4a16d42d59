import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { warsawStartOfDay } from '@/server/calendar/warsaw-time';
import { warsawDate } from '@/server/calendar/dates';

export type KsefUsage = { today: number; lastHour: number };

/**
 * The scope's own documents handed to KSeF (moved to `sending`, once each however often retried) since the
 * Europe/Warsaw day of `now` began, and in the hour before `now`: what the overview tells the shop owner, where the
 * request counters (throttle.ts) count the whole NIP's traffic per KSeF endpoint group.
 */
export async function ksefUsage(db: DbOrTx, scope: Scope, now: Date): Promise<KsefUsage> {
  const dayStart = warsawStartOfDay(warsawDate(now.toISOString()));
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const since = dayStart < hourAgo ? dayStart : hourAgo;
  const [row] = await db.execute<{ today: number; last_hour: number }>(sql`
    select count(distinct t.document_id) filter (where t.at >= ${dayStart.toISOString()}::timestamptz)::int as today,
      count(distinct t.document_id) filter (where t.at >= ${hourAgo.toISOString()}::timestamptz)::int as last_hour
    from document_transitions t join documents d on d.id = t.document_id
    where d.account_id = ${scope.accountId} and d.mode = ${scope.mode} and t.to_status = 'sending'
      and t.at >= ${since.toISOString()}::timestamptz and t.at <= ${now.toISOString()}::timestamptz`);
  return { today: row?.today ?? 0, lastHour: row?.last_hour ?? 0 };
}
