import { log } from '@/server/observability/log';
import { resendOrphans } from '@/server/submission/resend-orphans';
import type { TaskHandler } from './task';

/** Every minute (cron): documents on their way to KSeF, and closed batch sessions, that lost the job moving them get it back. */
export const ksefSweep: TaskHandler<'ksef_sweep'> = (db) => async () => {
  const restored = await resendOrphans(db);
  if (Object.values(restored).some((n) => n > 0)) log.warn(restored, 'ksef_sweep: lost jobs restored');
};
