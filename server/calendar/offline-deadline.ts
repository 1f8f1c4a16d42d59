import { nextWorkingDay } from './working-days';
import { endOfWarsawDay } from './warsaw-time';

/**
 * offline24: an invoice issued outside KSeF must reach KSeF by the next working day after its issue date P_1
 * (art. 106nda ust. 1 VAT Act; ksef-docs tryby-offline.md). "By the next working day" is read as through the end of
 * that day in Polish time: the deadline is its last millisecond, Europe/Warsaw.
 */
export function offline24Deadline(issueDate: string): Date {
  return endOfWarsawDay(nextWorkingDay(issueDate));
}

/** Documents this close to their deadline (and not yet accepted) are shown as at risk. */
export const AT_RISK_MS = 6 * 3_600_000;

export type DeadlineState = 'on_time' | 'at_risk' | 'missed';

export function deadlineState(deadline: Date, now: Date): DeadlineState {
  const left = deadline.getTime() - now.getTime();
  if (left < 0) return 'missed';
  return left <= AT_RISK_MS ? 'at_risk' : 'on_time';
}
