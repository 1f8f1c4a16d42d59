import { config } from '@/server/config';
import { deliverWebhook } from '@/server/webhooks/deliver-webhook';
import type { TaskHandler } from './task';

/** One delivery attempt; a failed one is logged and rescheduled by deliverWebhook, so only database errors throw. */
export const webhookDeliver: TaskHandler<'webhook_deliver'> = (db) => async (job) => {
  await deliverWebhook(db, job, { retryTimeScale: config().WEBHOOK_RETRY_TIME_SCALE });
};
