import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { takePage, type Page } from '@/server/db/keyset-page';
import { inScope, type Scope } from '@/server/db/scope';
import { events, webhookDeliveries, webhookEndpoints } from '@/server/db/schema';
import { WEBHOOK_TEST_EVENT_TYPE } from '@/server/facts/event-types';

export type ListDeliveriesQuery = ({ endpointId: string } | { documentId: string } | { eventId: string }) & { limit: number; beforeId?: number };

export type DeliveryLogEntry = {
  id: number;
  eventId: string;
  eventType: string;
  /** Null for a test event (server/webhooks/send-test-event.ts), which belongs to no document. */
  documentId: string | null;
  /** A test event: sent once from the dashboard, not stored, not resendable. */
  test: boolean;
  endpointId: string;
  url: string;
  attempt: number;
  at: Date;
  statusCode: number | null;
  durationMs: number | null;
  responseBody: string | null;
  error: string | null;
  delivered: boolean;
  nextAttemptAt: Date | null;
};

/**
 * The delivery log for the dashboard: attempts to one endpoint, for one document's events or for one event,
 * newest first; page on with `beforeId` = the last entry's id. Scoped through the endpoint (invariant 5), which a
 * delivery's event always shares; a test event's delivery has no stored event.
 */
export async function listDeliveries(db: DbOrTx, scope: Scope, q: ListDeliveriesQuery): Promise<Page<DeliveryLogEntry>> {
  const filter: SQL | undefined =
    'endpointId' in q
      ? eq(webhookDeliveries.endpointId, q.endpointId)
      : 'documentId' in q
        ? eq(events.documentId, q.documentId)
        : eq(webhookDeliveries.eventId, q.eventId);
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      eventId: sql<string>`coalesce(${webhookDeliveries.eventId}, ${webhookDeliveries.testEventId})`,
      eventType: sql<string>`coalesce(${events.type}, ${WEBHOOK_TEST_EVENT_TYPE})`,
      documentId: events.documentId,
      test: sql<boolean>`${webhookDeliveries.testEventId} is not null`,
      endpointId: webhookDeliveries.endpointId,
      url: webhookEndpoints.url,
      attempt: webhookDeliveries.attempt,
      at: webhookDeliveries.at,
      statusCode: webhookDeliveries.statusCode,
      durationMs: webhookDeliveries.durationMs,
      responseBody: webhookDeliveries.responseBody,
      error: webhookDeliveries.error,
      delivered: webhookDeliveries.delivered,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(inScope(webhookEndpoints, scope), filter, q.beforeId !== undefined ? lt(webhookDeliveries.id, q.beforeId) : undefined))
    .orderBy(desc(webhookDeliveries.id))
    .limit(q.limit + 1);
  return takePage(
    rows.map((r) => ({ ...r, delivered: r.delivered === 'yes' })),
    q.limit,
  );
}
