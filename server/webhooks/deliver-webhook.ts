import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { events, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { enqueue } from '../jobs/enqueue';
import { nextAttemptAt } from './retry-schedule';
import { sendWebhook, type SendResult } from './send-webhook';
import { unsealWebhookSecret } from './webhook-secret';

/** Payload of a webhook_deliver job; `manual` marks a resend from the dashboard, which is tried once. */
export const ZDeliveryJob = z.object({
  eventId: z.string().min(1),
  endpointId: z.string().min(1),
  attempt: z.number().int().min(1),
  manual: z.boolean().optional(),
});
export type DeliveryJob = z.infer<typeof ZDeliveryJob>;

export type DeliveryOptions = { retryTimeScale?: number; timeoutMs?: number };
export type DeliveryOutcome =
  | { outcome: 'dropped'; reason: string }
  | ({ outcome: 'delivered' | 'failed'; nextAttemptAt: Date | null } & SendResult);

export const deliveryJobKey = (eventId: string, endpointId: string, attempt: number) => `deliver:${eventId}:${endpointId}:${attempt}`;

/**
 * One attempt of one event to one endpoint (spec 6.2). It sends the stored body as is, logs the attempt and,
 * when it failed, schedules the next attempt as a new job with run_at, in the same transaction as the log row,
 * so the schedule is exact and survives restarts. A failed delivery is an outcome, not an exception.
 * An endpoint disabled since the event was recorded gets nothing and no log row (DELETE: nothing new delivered).
 */
export async function deliverWebhook(db: Db, job: DeliveryJob, o: DeliveryOptions = {}): Promise<DeliveryOutcome> {
  const [target] = await db
    .select({ body: events.body, mode: webhookEndpoints.mode, url: webhookEndpoints.url, secret: webhookEndpoints.secret, status: webhookEndpoints.status })
    .from(events)
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.accountId, events.accountId), eq(webhookEndpoints.mode, events.mode)))
    .where(and(eq(events.id, job.eventId), eq(webhookEndpoints.id, job.endpointId)));
  if (!target) return { outcome: 'dropped', reason: 'no such event and endpoint in one scope' };
  if (target.status !== 'enabled') return { outcome: 'dropped', reason: 'endpoint disabled' };

  const at = new Date();
  const result = await sendWebhook(target.url, job.eventId, target.body, unsealWebhookSecret(target.secret), { mode: target.mode, timeoutMs: o.timeoutMs });
  const next = result.delivered || job.manual ? null : nextAttemptAt(job.attempt, new Date(), o.retryTimeScale);
  const row = {
    eventId: job.eventId,
    endpointId: job.endpointId,
    attempt: job.attempt,
    at,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    responseBody: result.responseBody,
    error: result.error,
    delivered: result.delivered ? ('yes' as const) : ('no' as const),
    nextAttemptAt: next,
  };
  if (!next) {
    await db.insert(webhookDeliveries).values(row); // the common case: one statement, no transaction
  } else {
    await db.transaction(async (tx) => {
      await tx.insert(webhookDeliveries).values(row);
      const attempt = job.attempt + 1;
      await enqueue(tx, 'webhook_deliver', { eventId: job.eventId, endpointId: job.endpointId, attempt }, { runAt: next, jobKey: deliveryJobKey(job.eventId, job.endpointId, attempt) });
    });
  }
  return { outcome: result.delivered ? 'delivered' : 'failed', nextAttemptAt: next, ...result };
}
