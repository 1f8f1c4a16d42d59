import { log } from '@/server/observability/log';
import { resendOrphans } from '@/server/submission/resend-orphans';
import type { TaskHandler } from './task';

/** Every minute (cron): documents left in queued without their send job get it back. */
export const ksefSweep: TaskHandler<'ksef_sweep'> = (db) => async () => {
  const n = await resendOrphans(db);
  if (n) log.warn({ documents: n }, 'ksef_sweep: send jobs restored');
};
