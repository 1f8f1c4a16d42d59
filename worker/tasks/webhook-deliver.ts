import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { Db } from '../../server/db/client';
import { deliverWebhook, ZDeliveryJob } from '../../server/webhooks/deliver-webhook';

/** WEBHOOK_RETRY_TIME_SCALE shrinks the retry schedule (0.001: one minute becomes 60 ms) for tests and benchmarks. */
const ZTimeScale = z.coerce.number().positive().max(1).default(1);

/** One delivery attempt; a failed one is logged and rescheduled by deliverWebhook, so only database errors throw. */
export const webhookDeliver =
  (db: Db): Task =>
  async (payload, helpers) => {
    const job = ZDeliveryJob.parse(payload); // jobs outlive deploys: check, don't trust the type
    const r = await deliverWebhook(db, job, { retryTimeScale: ZTimeScale.parse(process.env.WEBHOOK_RETRY_TIME_SCALE || undefined) });
    if (r.outcome === 'dropped') helpers.logger.info(`webhook ${job.eventId} → ${job.endpointId}: dropped (${r.reason})`);
    else if (r.outcome === 'failed') {
      helpers.logger.info(`webhook ${job.eventId} → ${job.endpointId} attempt ${job.attempt}: ${r.error}; next ${r.nextAttemptAt?.toISOString() ?? 'none'}`);
    }
  };
