import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { takePage, type Page } from '@/server/db/keyset-page';
import { inScope, type Scope } from '@/server/db/scope';
import { events, webhookDeliveries, webhookEndpoints } from '@/server/db/schema';

export type ListDeliveriesQuery = ({ endpointId: string } | { documentId: string } | { eventId: string }) & { limit: number; beforeId?: number };

export type DeliveryLogEntry = {
  id: number;
  eventId: string;
  eventType: string;
  documentId: string;
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
 * newest first; page on with `beforeId` = the last entry's id. Scoped through the event (invariant 5).
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
      eventId: webhookDeliveries.eventId,
      eventType: events.type,
      documentId: events.documentId,
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
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(inScope(events, scope), filter, q.beforeId !== undefined ? lt(webhookDeliveries.id, q.beforeId) : undefined))
    .orderBy(desc(webhookDeliveries.id))
    .limit(q.limit + 1);
  return takePage(
    rows.map((r) => ({ ...r, delivered: r.delivered === 'yes' })),
    q.limit,
  );
}
