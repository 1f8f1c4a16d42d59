import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/server/db/client';
import { documents, ksefNotices, type KsefNoticeRow } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import { outageDeadline, type Notice, type NoticeMode } from './modes';

const asNotice = (r: KsefNoticeRow): Notice => ({ id: r.id, mode: r.mode, startsAt: r.startsAt, endsAt: r.endsAt });

/** Every notice, oldest first: a handful a year, and a failure's count may reach back over several of them. */
export async function listNotices(db: DbOrTx): Promise<KsefNoticeRow[]> {
  return db.select().from(ksefNotices).orderBy(asc(ksefNotices.startsAt), asc(ksefNotices.id));
}

export const loadNotices = async (db: DbOrTx): Promise<Notice[]> => (await listNotices(db)).map(asNotice);

export type NewNotice = { mode: NoticeMode; startsAt: Date; endsAt?: Date | null; source: KsefNoticeRow['source']; note?: string | null };

/** Records a Ministry notice and moves the deadlines that count from it (silent: the CLI's stdout is its one JSON line). */
export async function addNotice(db: Db, notice: NewNotice): Promise<KsefNoticeRow> {
  if (notice.endsAt && notice.endsAt <= notice.startsAt) throw new Error('a notice ends after it starts');
  const [row] = await db
    .insert(ksefNotices)
    .values({ ...notice, endsAt: notice.endsAt ?? null })
    .returning();
  await recomputeOutageDeadlines(db);
  return row!;
}

/** Sets the end the Ministry announced (or the status service saw); the documents' deadlines follow it. */
export async function endNotice(db: Db, id: number, endsAt: Date): Promise<KsefNoticeRow | null> {
  const [found] = await db.select({ startsAt: ksefNotices.startsAt }).from(ksefNotices).where(eq(ksefNotices.id, id));
  if (!found) return null;
  if (endsAt <= found.startsAt) throw new Error('a notice ends after it starts');
  const [row] = await db.update(ksefNotices).set({ endsAt }).where(eq(ksefNotices.id, id)).returning();
  if (!row) return null;
  await recomputeOutageDeadlines(db);
  return row;
}

/**
 * The deadlines of documents issued in an unavailability or a failure and not yet in KSeF, counted again from the
 * notices as they now stand: a notice's end (art. 106nh ust. 1, art. 106nf ust. 1) or a later failure restarting
 * the count. A moved deadline gets its deadline watch (offline_deadline) at the new time.
 */
export async function recomputeOutageDeadlines(db: Db): Promise<number> {
  const notices = await loadNotices(db);
  const byId = new Map(notices.map((n) => [n.id, n]));
  const waiting = await db
    .select({
      id: documents.id,
      issueDate: documents.issueDate,
      outageMode: documents.outageMode,
      noticeId: documents.outageNoticeId,
      deadline: documents.offlineDeadline,
    })
    .from(documents)
    .where(
      and(
        inArray(documents.outageMode, ['unavailable', 'failure']),
        isNull(documents.ksefNumber),
        sql`${documents.status} not in ('skipped', 'error', 'rejected')`,
      ),
    );
  let moved = 0;
  for (const d of waiting) {
    const notice = d.noticeId === null ? null : (byId.get(d.noticeId) ?? null);
    const deadline = outageDeadline(d.outageMode!, d.issueDate!, notice, notices);
    if ((deadline?.getTime() ?? null) === (d.deadline?.getTime() ?? null)) continue;
    await db.transaction(async (tx) => {
      await tx
        .update(documents)
        .set({ offlineDeadline: deadline, offlineDeadlineMissed: false, updatedAt: sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')` })
        .where(eq(documents.id, d.id));
      if (deadline) await enqueue(tx, 'offline_deadline', { documentId: d.id }, { runAt: new Date(deadline.getTime() + 1) });
    });
    moved++;
  }
  return moved;
}
