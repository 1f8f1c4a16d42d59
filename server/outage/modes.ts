/**
 * The ways an invoice is issued when KSeF cannot take it at once (VAT act as amended by the KSeF acts, in force from
 * 1 February 2026), what each gives as the sending deadline and the JPK_V7 marker. Pure: no I/O, times passed in.
 * - offline24 (art. 106nda): the seller's own choice or trouble; sent by the end of the next working day after P_1.
 * - unavailable (art. 106nh ust. 1): KSeF unavailable as announced by the Ministry (maintenance, the status service's
 *   MAINTENANCE); sent by the end of the next working day after the unavailability ends.
 * - failure (art. 106nf ust. 1): a failure ("awaria") the Ministry announces (the status service's FAILURE); sent within
 *   7 working days from the end given in the Ministry's notice, and a failure that starts within that count
 *   restarts it from its own end.
 * - total_failure (art. 106ng): invoices are issued outside KSeF and are not sent to it.
 */
import { toWarsawDate } from '@/server/calendar/date-text';
import { endOfWarsawDay } from '@/server/calendar/warsaw-time';
import { addWorkingDays, nextWorkingDay } from '@/server/calendar/working-days';
import { offline24Deadline } from '@/server/calendar/offline-deadline';
import { NOTICE_MODES, type NoticeMode, type OutageMode } from './mode-names';

export { jpkMarkerOf, NOTICE_MODES, OUTAGE_MODES, type JpkMarker, type NoticeMode, type OutageMode } from './mode-names';

/** What the Ministry's status service ("Latarnia", GET /status) answers. */
export const KSEF_STATUSES = ['AVAILABLE', 'MAINTENANCE', 'FAILURE', 'TOTAL_FAILURE'] as const;
export type KsefStatus = (typeof KSEF_STATUSES)[number];

export function modeOfStatus(status: KsefStatus): NoticeMode | null {
  if (status === 'MAINTENANCE') return 'unavailable';
  if (status === 'FAILURE') return 'failure';
  if (status === 'TOTAL_FAILURE') return 'total_failure';
  return null;
}

/** A Ministry notice as the service holds it: entered by the operator or opened and closed by the status service. */
export type Notice = { id: number; mode: NoticeMode; startsAt: Date; endsAt: Date | null };

/** Working days a document issued in a failure has from the failure's end (art. 106nf ust. 1). */
export const FAILURE_WORKING_DAYS = 7;

const covers = (n: Notice, at: Date) => n.startsAt <= at && (n.endsAt === null || at < n.endsAt);

/** The announced outage in force at `at`, the gravest when several overlap (a total failure outranks a failure). */
export function noticeAt(notices: readonly Notice[], at: Date): Notice | null {
  const rank = (m: NoticeMode) => NOTICE_MODES.indexOf(m);
  return notices.filter((n) => covers(n, at)).sort((a, b) => rank(b.mode) - rank(a.mode))[0] ?? null;
}

/**
 * The end of the 7-working-day count of a failure (art. 106nf ust. 1), restarted from its end by a failure that
 * begins before the count runs out (art. 106nf: a further failure within the period): null while the failure that
 * ends the chain has no announced end.
 */
export function failureDeadline(notice: Notice, notices: readonly Notice[]): Date | null {
  const failures = notices.filter((n) => n.mode === 'failure');
  let end = notice.endsAt;
  for (;;) {
    if (end === null) return null;
    const from = end;
    const deadline = endOfWarsawDay(addWorkingDays(toWarsawDate(from), FAILURE_WORKING_DAYS));
    const later = failures.filter((n) => n.startsAt <= deadline && (n.endsAt === null || n.endsAt > from));
    if (later.length === 0) return deadline;
    end = later.some((n) => n.endsAt === null) ? null : new Date(Math.max(...later.map((n) => n.endsAt!.getTime())));
  }
}

/** The sending deadline of a document issued in `mode` on `issueDate` (P_1) under `notice`; null: none known (yet), or none at all. */
export function outageDeadline(mode: OutageMode, issueDate: string, notice: Notice | null, notices: readonly Notice[]): Date | null {
  switch (mode) {
    case 'offline24':
      return offline24Deadline(issueDate); // art. 106nda ust. 1
    case 'unavailable': // art. 106nh ust. 1: the next working day after the unavailability ends
      return notice?.endsAt ? endOfWarsawDay(nextWorkingDay(toWarsawDate(notice.endsAt))) : null;
    case 'failure':
      return notice ? failureDeadline(notice, notices) : null;
    case 'total_failure':
      return null; // art. 106ng: not sent to KSeF
  }
}

/**
 * Whether a document may go to KSeF at `at`: not while a total failure is announced (until the notice ends), and
 * never one issued in a total failure (art. 106ng: such invoices stay outside KSeF).
 */
export function mayReachKsef(notices: readonly Notice[], documentMode: OutageMode | null, at: Date): boolean {
  if (documentMode === 'total_failure') return false;
  return noticeAt(notices, at)?.mode !== 'total_failure';
}
