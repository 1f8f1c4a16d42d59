import type { Db } from '@/server/db/client';
import { documentError } from '@/server/documents/document-errors';
import { loadDocument } from '@/server/documents/load-document';
import { mayReachKsef, noticeAt, type Notice } from '@/server/outage/modes';
import { finishDocument, postponeDocument } from './document-outcomes';

/** How often a document held by a total failure without an announced end looks again. */
export const TOTAL_FAILURE_RECHECK_SECONDS = 600;

/**
 * The send step's outage guard, asked before KSeF is: true when the document must not go to KSeF now, after
 * dealing with it. During a total failure (art. 106ng) it waits until the notice's end (or looks again in 10
 * minutes while none is announced); one issued in a total failure stays outside KSeF for good, skipped with
 * issued_outside_ksef (the buyer has it; the register marks it BFK). `notices` are read once per send run.
 */
export async function heldByOutage(db: Db, documentId: string, notices: Notice[], now: Date): Promise<boolean> {
  // no total failure was ever announced: nothing to hold, and no document was issued in one
  if (!notices.some((n) => n.mode === 'total_failure')) return false;
  // read here, not passed in: an offline-first send has just issued it, perhaps in a total failure
  const doc = await loadDocument(db, documentId);
  if (!doc || mayReachKsef(notices, doc.outageMode, now)) return false;
  if (doc.outageMode === 'total_failure') {
    await finishDocument(db, doc, 'skipped', documentError('issued_outside_ksef'));
    return true;
  }
  const end = noticeAt(notices, now)?.endsAt;
  const seconds = end ? Math.ceil((end.getTime() - now.getTime()) / 1000) : TOTAL_FAILURE_RECHECK_SECONDS;
  await postponeDocument(db, doc, Math.min(seconds, TOTAL_FAILURE_RECHECK_SECONDS));
  return true;
}
