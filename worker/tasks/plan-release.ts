import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { Db } from '../../server/db/client';
import { releaseAllPlanLimited, releasePlanLimited } from '../../server/documents/prepare-document';

/** After a plan change: that scope. From the hourly cron (which also catches the Warsaw month turn): every scope. */
const ZPlanReleaseJob = z.object({ accountId: z.string().min(1).optional(), mode: z.enum(['test', 'live']).optional() });

export const planRelease =
  (db: Db): Task =>
  async (payload, helpers) => {
    const { accountId, mode } = ZPlanReleaseJob.parse(payload ?? {});
    const released = accountId && mode ? await releasePlanLimited(db, { accountId, mode }) : await releaseAllPlanLimited(db);
    if (released) helpers.logger.info(`plan_release: ${released} documents numbered`);
  };
