import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { webhookDeliveries } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { WEBHOOK_TEST_EVENT_TYPE } from '@/server/facts/event-types';
import { newId } from '@/server/ids';
import { getWebhookEndpoint } from './get-webhook-endpoint';
import { sendWebhook, type SendOptions, type SendResult } from './send-webhook';
import { unsealWebhookSecret } from './webhook-secret';

/**
 * Dashboard "send test event": a `webhook_endpoint.test` event (beyond the spec) signed with the endpoint's secret
 * and scheme and POSTed once, now, while the person waits. It is shaped like every event, with the endpoint as its
 * object, so a receiver's signature check and parsing are exercised; it is not stored in `events` (no document,
 * not in GET /v1/events) and is never retried. The attempt is logged in the endpoint's delivery log, marked a test.
 */
export async function sendTestEvent(
  db: Db,
  scope: Scope,
  endpointId: string,
  o: Pick<SendOptions, 'timeoutMs' | 'allowPrivate'> & { now?: Date } = {},
): Promise<SendResult & { eventId: string }> {
  const endpoint = await getWebhookEndpoint(db, scope, endpointId);
  if (endpoint.status !== 'enabled') throw new AppError('parameter_invalid', 'endpoint', 'The webhook endpoint is disabled.');
  const at = o.now ?? new Date();
  const eventId = newId('evt');
  const body = JSON.stringify({
    id: eventId,
    object: 'event',
    type: WEBHOOK_TEST_EVENT_TYPE,
    livemode: scope.mode === 'live',
    created: Math.floor(at.getTime() / 1000),
    data: { object: { id: endpoint.id, object: 'webhook_endpoint', url: endpoint.url } },
  });
  const result = await sendWebhook(endpoint.url, eventId, body, unsealWebhookSecret(endpoint.secret), { mode: scope.mode, ...o });
  await db.insert(webhookDeliveries).values({
    eventId: null,
    testEventId: eventId,
    endpointId: endpoint.id,
    attempt: 1,
    at,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    responseBody: result.responseBody,
    error: result.error,
    delivered: result.delivered ? 'yes' : 'no',
  });
  return { ...result, eventId };
}
