import { and, eq, max, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { events, webhookDeliveries } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { enqueue } from '@/server/jobs/enqueue';
import { getWebhookEndpoint } from './get-webhook-endpoint';

/**
 * Dashboard "resend": one more attempt of an event to one enabled endpoint subscribed to its type, run by the
 * worker as soon as it can, numbered after the attempts logged so far. It is tried once, with no retries of its
 * own, and leaves any scheduled retry in place; the receiver sees the same KSeF-Event-Id and body as before.
 */
export async function resendEvent(db: Db, scope: Scope, eventId: string, endpointId: string): Promise<{ attempt: number }> {
  const [event] = await db
    .select({ type: events.type })
    .from(events)
    .where(and(inScope(events, scope), eq(events.id, eventId)));
  if (!event) throw new AppError('resource_missing', 'event', `No such event: ${eventId}.`);
  const endpoint = await getWebhookEndpoint(db, scope, endpointId);
  if (endpoint.status !== 'enabled') throw AppError.detailed('parameter_invalid', 'endpoint', 'endpoint_disabled');
  if (!endpoint.enabledEvents.includes(event.type) && !endpoint.enabledEvents.includes('*')) {
    throw AppError.detailed('parameter_invalid', 'endpoint', 'endpoint_not_subscribed', { type: event.type });
  }
  return db.transaction(async (tx) => {
    // Serialises resends of one pair so that two clicks get two attempt numbers.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`resend:${eventId}:${endpointId}`}, 0))`);
    const [last] = await tx
      .select({ n: max(webhookDeliveries.attempt) })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, eventId), eq(webhookDeliveries.endpointId, endpointId)));
    const attempt = (last?.n ?? 0) + 1;
    await enqueue(tx, 'webhook_deliver', { eventId, endpointId, attempt, manual: true });
    return { attempt };
  });
}
