import type { DbOrTx } from '@/server/db/client';
import { noticeAt, outageDeadline, type OutageMode } from './modes';
import { loadNotices } from './notices';

export type OutageTerms = { outageMode: OutageMode; outageNoticeId: number | null; deadline: Date | null };

/**
 * The mode a document handed over outside KSeF at `now` is issued in, and its deadline: the Ministry notice in
 * force then (unavailability, failure, total failure), else offline24 (art. 106nda).
 */
export async function outageTermsAt(db: DbOrTx, issueDate: string, now: Date): Promise<OutageTerms> {
  const notices = await loadNotices(db);
  const notice = noticeAt(notices, now);
  const outageMode = notice?.mode ?? 'offline24';
  return { outageMode, outageNoticeId: notice?.id ?? null, deadline: outageDeadline(outageMode, issueDate, notice, notices) };
}
