import { purgeIdempotencyKeys } from '@/server/http/idempotency';
import { purgeRateLimits } from '@/server/http/rate-limit';
import type { TaskHandler } from './task';

/** Hourly clean-up: idempotency keys past 24 hours (spec 8) and rate-limit rows whose quota is full again. */
export const maintenance: TaskHandler<'maintenance'> = (db) => async (_p, helpers) => {
  const purged = await purgeIdempotencyKeys(db);
  await purgeRateLimits(db);
  helpers.logger.info(`maintenance: ${purged} idempotency keys purged`);
};
