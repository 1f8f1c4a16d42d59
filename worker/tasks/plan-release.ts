import { releaseAllPlanLimited, releasePlanLimited } from '@/server/documents/prepare-document';
import type { TaskHandler } from './task';

/** After a plan change: that scope. From the hourly cron (which also catches the Warsaw month turn): every scope. */
export const planRelease: TaskHandler<'plan_release'> =
  (db) =>
  async ({ accountId, mode }, helpers) => {
    const released = accountId && mode ? await releasePlanLimited(db, { accountId, mode }) : await releaseAllPlanLimited(db);
    if (released) helpers.logger.info(`plan_release: ${released} documents numbered`);
  };
