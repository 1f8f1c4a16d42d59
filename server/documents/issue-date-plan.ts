import type { DocumentWarning } from '@/server/db/schema';
import { offline24Deadline } from '@/server/calendar/offline-deadline';
import type { DocumentRow } from './document-row';
import { periodOf } from './numbering';
import { documentWarning } from './warning-texts';

export type IssueDatePlan =
  | { kind: 'as_is' }
  /** rebuild the XML with P_1 = today; the number stays */
  | { kind: 'move'; issueDate: string; warning: DocumentWarning }
  /** send as issued, declared offline (offline24), by `deadline` */
  | { kind: 'offline'; deadline: Date; warning: DocumentWarning };

/**
 * P_1 against the Warsaw day of sending (tax-rules.md §4). KSeF marks a document whose P_1 is before the day it
 * arrives as offline, and then the offline24 deadline applies (art. 106nda); under art. 106na ust. 1 an online
 * invoice is issued on the day it is sent. So, when P_1 is earlier than `today`:
 * - nothing of it has been handed to anyone (no KSeF session has had its bytes, no PDF, no e-mail: the PDF exists
 *   only after acceptance) and `today` is in the month of its number: P_1 moves to today and the XML is rebuilt;
 * - otherwise (the number's month is over, or KSeF may hold the old bytes): it goes as issued with offlineMode
 *   true, and the deadline is the end of the next working day after P_1.
 */
export function planIssueDate(
  doc: Pick<DocumentRow, 'issueDate' | 'ksefSessionRef' | 'pdfFileId' | 'mailStatus' | 'offlineMode' | 'offlineDeadline'>,
  today: string,
): IssueDatePlan {
  const issued = doc.issueDate;
  if (!issued || issued >= today) return { kind: 'as_is' };
  const handedOut = doc.ksefSessionRef !== null || doc.pdfFileId !== null || doc.mailStatus === 'sent';
  if (!doc.offlineMode && !handedOut && periodOf(issued) === periodOf(today)) {
    return {
      kind: 'move',
      issueDate: today,
      warning: documentWarning('issue_date_moved', { from: issued, to: today }),
    };
  }
  const deadline = doc.offlineDeadline ?? offline24Deadline(issued);
  const facts = { issued, sent: today, deadline: deadline.toISOString() };
  return {
    kind: 'offline',
    deadline,
    warning: handedOut ? documentWarning('sent_offline_handed_out', facts) : documentWarning('sent_offline_numbered', { ...facts, period: periodOf(issued) }),
  };
}
