import type { Task } from 'graphile-worker';
import type { Db } from '../../server/db/client';
import { purgeIdempotencyKeys } from '../../server/http/idempotency';
import { purgeRateLimitWindows } from '../../server/http/rate-limit';

/** Hourly clean-up: idempotency keys past 24 hours (spec 8) and finished rate-limit windows. */
export const maintenance =
  (db: Db): Task =>
  async (_payload, helpers) => {
    const purged = await purgeIdempotencyKeys(db);
    await purgeRateLimitWindows(db);
    helpers.logger.info(`maintenance: ${purged} idempotency keys purged`);
  };
