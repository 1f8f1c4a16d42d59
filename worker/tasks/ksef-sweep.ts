import { log } from '@/server/observability/log';
import { restorePdfMailJobs } from '@/server/mail/restore-lane-jobs';
import { resendOrphans } from '@/server/submission/resend-orphans';
import type { TaskHandler } from './task';

/**
 * Every minute (cron): documents on their way to KSeF, and closed batch sessions, that lost the job moving them get
 * it back; so do lanes with a PDF or an e-mail to do and no job of theirs.
 */
export const ksefSweep: TaskHandler<'ksef_sweep'> = (db) => async () => {
  const restored = { ...(await resendOrphans(db)), ...(await restorePdfMailJobs(db)) };
  if (Object.values(restored).some((n) => n > 0)) log.warn(restored, 'ksef_sweep: lost jobs restored');
};
