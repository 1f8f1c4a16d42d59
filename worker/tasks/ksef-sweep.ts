import { log } from '@/server/observability/log';
import { resendOrphans } from '@/server/submission/resend-orphans';
import type { TaskHandler } from './task';

/** Every minute (cron): documents on their way to KSeF that lost the job moving them get it back. */
export const ksefSweep: TaskHandler<'ksef_sweep'> = (db) => async () => {
  const restored = await resendOrphans(db);
  if (restored.prepare + restored.send + restored.status) log.warn(restored, 'ksef_sweep: lost jobs restored');
};
