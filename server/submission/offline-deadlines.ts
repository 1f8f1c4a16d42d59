import { and, count, eq, isNull, lt, sql } from 'drizzle-orm';
import { AT_RISK_MS } from '@/server/calendar/offline-deadline';
import type { Db, DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import { log } from '@/server/observability/log';

const unsent = and(eq(documents.offlineMode, true), isNull(documents.ksefNumber));

/**
 * Offline documents past their deadline without a KSeF number are marked deadline_missed (KSeF still accepts
 * them, and sending goes on; the seller must know: art. 106nda). `now` is passed in, so tests drive time.
 */
export async function markMissedDeadlines(db: Db, now: Date, documentId?: string): Promise<string[]> {
  const rows = await db
    .update(documents)
    .set({ offlineDeadlineMissed: true, updatedAt: sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')` })
    .where(and(unsent, eq(documents.offlineDeadlineMissed, false), lt(documents.offlineDeadline, now), documentId ? eq(documents.id, documentId) : undefined))
    .returning({ id: documents.id });
  for (const r of rows) log.warn({ documentId: r.id, at: now.toISOString() }, 'offline_deadline_missed');
  return rows.map((r) => r.id);
}

export type OfflineSummary = { waiting: number; atRisk: number; missed: number; nextDeadline: Date | null };

/** Offline documents of a scope not yet in KSeF: the overview's "at risk" panel (deadline within 6 hours or missed). */
export async function offlineSummary(db: DbOrTx, scope: Scope, now: Date): Promise<OfflineSummary> {
  const at = now.toISOString();
  const soon = new Date(now.getTime() + AT_RISK_MS).toISOString();
  const [row] = await db
    .select({
      waiting: count(),
      atRisk:
        sql<number>`count(*) filter (where ${documents.offlineDeadline} >= ${at}::timestamptz and ${documents.offlineDeadline} <= ${soon}::timestamptz)`.mapWith(
          Number,
        ),
      missed: sql<number>`count(*) filter (where ${documents.offlineDeadlineMissed} or ${documents.offlineDeadline} < ${at}::timestamptz)`.mapWith(Number),
      nextDeadline: sql<Date | null>`min(${documents.offlineDeadline}) filter (where ${documents.offlineDeadline} >= ${at}::timestamptz)`.mapWith((v) =>
        v ? new Date(v as string) : null,
      ),
    })
    .from(documents)
    .where(and(inScope(documents, scope), unsent, sql`${documents.status} not in ('skipped', 'error')`));
  return row ?? { waiting: 0, atRisk: 0, missed: 0, nextDeadline: null };
}
