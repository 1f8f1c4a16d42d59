import { and, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { events, webhookDeliveries, webhookEndpoints } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import type { JobPayload } from '@/server/jobs/registry';
import { reportFailure } from '@/server/observability/failures';
import { log } from '@/server/observability/log';
import { metrics } from '@/server/observability/metrics';
import { nextAttemptAt } from './retry-schedule';
import { sendWebhook, type SendResult } from './send-webhook';
import { unsealWebhookSecret } from './webhook-secret';

/** `manual` marks a resend from the dashboard, which is tried once. */
export type DeliveryJob = JobPayload<'webhook_deliver'>;

export type DeliveryOptions = { retryTimeScale?: number; timeoutMs?: number };
export type DeliveryOutcome = { outcome: 'dropped'; reason: string } | ({ outcome: 'delivered' | 'failed'; nextAttemptAt: Date | null } & SendResult);

/**
 * One attempt of one event to one endpoint (spec 6.2). It sends the stored body as is, logs the attempt and,
 * when it failed, schedules the next attempt as a new job with run_at, in the same transaction as the log row,
 * so the schedule is exact and survives restarts. A failed delivery is an outcome, not an exception.
 * An endpoint disabled since the event was recorded gets nothing and no log row (DELETE: nothing new delivered).
 */
export async function deliverWebhook(db: Db, job: DeliveryJob, o: DeliveryOptions = {}): Promise<DeliveryOutcome> {
  const [target] = await db
    .select({
      body: events.body,
      accountId: events.accountId,
      mode: webhookEndpoints.mode,
      url: webhookEndpoints.url,
      secret: webhookEndpoints.secret,
      status: webhookEndpoints.status,
    })
    .from(events)
    .innerJoin(webhookEndpoints, and(eq(webhookEndpoints.accountId, events.accountId), eq(webhookEndpoints.mode, events.mode)))
    .where(and(eq(events.id, job.eventId), eq(webhookEndpoints.id, job.endpointId)));
  if (!target) return dropped(job, 'no such event and endpoint in one scope');
  if (target.status !== 'enabled') return dropped(job, 'endpoint disabled');

  const at = new Date();
  const result = await sendWebhook(target.url, job.eventId, target.body, unsealWebhookSecret(target.secret), { mode: target.mode, timeoutMs: o.timeoutMs });
  metrics().webhookDeliveries.observe({ outcome: result.delivered ? 'delivered' : 'failed' }, result.durationMs / 1000);
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
      await enqueue(tx, 'webhook_deliver', { eventId: job.eventId, endpointId: job.endpointId, attempt }, { runAt: next });
    });
  }
  if (!result.delivered) {
    const ids = { eventId: job.eventId, endpointId: job.endpointId, accountId: target.accountId, mode: target.mode };
    const attempt = {
      attempt: job.attempt,
      ...(job.manual && { manual: true }),
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
    };
    // a manual resend is tried once, by a person watching its outcome; a scheduled delivery with no attempt left gave up
    const gaveUp = !next && !job.manual;
    reportFailure(gaveUp ? 'webhook_gave_up' : 'webhook_attempt_failed', { ...ids, ...attempt, nextAttemptAt: next?.toISOString() ?? null });
  }
  return { outcome: result.delivered ? 'delivered' : 'failed', nextAttemptAt: next, ...result };
}

function dropped(job: DeliveryJob, reason: string): DeliveryOutcome {
  log.info({ eventId: job.eventId, endpointId: job.endpointId, attempt: job.attempt, reason }, 'webhook_dropped');
  return { outcome: 'dropped', reason };
}
