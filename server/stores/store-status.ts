import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { storeConnections, storeDeliveries, storeOrders, storeWebhooks } from '@/server/db/schema';
import { writebackGiveUps } from './writeback';

/**
 * The store page: the connection and where its invoicing starts, our webhooks as last seen in the store (and why one was re-created), the last
 * event received, the last reconciliation, the orders skipped, counted by reason with the latest examples, and the
 * write-backs that gave up.
 */
export async function getStoreStatus(db: Db, scope: Scope) {
  const [store] = await db
    .select()
    .from(storeConnections)
    .where(and(eq(storeConnections.accountId, scope.accountId), eq(storeConnections.mode, scope.mode), ne(storeConnections.status, 'disconnected')));
  if (!store) return null;
  const [webhooks, [last], byOutcome, skipped, giveUps] = await Promise.all([
    db.select().from(storeWebhooks).where(eq(storeWebhooks.storeId, store.id)).orderBy(storeWebhooks.topic),
    db
      .select({ at: sql<Date | null>`max(${storeDeliveries.receivedAt})` })
      .from(storeDeliveries)
      .where(eq(storeDeliveries.storeId, store.id)),
    db
      .select({ outcome: storeOrders.outcome, reason: storeOrders.reason, n: sql<number>`count(*)::int` })
      .from(storeOrders)
      .where(eq(storeOrders.storeId, store.id))
      .groupBy(storeOrders.outcome, storeOrders.reason),
    db
      .select({
        kind: storeOrders.kind,
        id: storeOrders.remoteId,
        orderId: storeOrders.remoteOrderId,
        reason: storeOrders.reason,
        message: storeOrders.message,
        at: storeOrders.updatedAt,
      })
      .from(storeOrders)
      .where(and(eq(storeOrders.storeId, store.id), eq(storeOrders.outcome, 'skipped')))
      .orderBy(desc(storeOrders.updatedAt))
      .limit(20),
    writebackGiveUps(db, scope),
  ]);
  const lastEventAt = last?.at ? new Date(last.at) : null;
  return {
    id: store.id,
    url: store.url,
    status: store.status,
    createdAt: store.createdAt,
    invoiceFrom: store.invoiceFrom,
    invoiceStatuses: store.invoiceStatuses,
    customerNote: store.customerNote,
    nipMetaKeys: store.nipMetaKeys,
    paymentMethods: store.paymentMethods,
    lastEventAt,
    lastSyncAt: store.lastSyncAt,
    lastSyncResult: store.lastSyncResult,
    webhooks: webhooks.map((w) => ({ id: w.remoteId, topic: w.topic, status: w.status, note: w.note, checkedAt: w.checkedAt })),
    invoiced: byOutcome.filter((r) => r.outcome === 'invoiced').reduce((s, r) => s + r.n, 0),
    corrected: byOutcome.filter((r) => r.outcome === 'corrected').reduce((s, r) => s + r.n, 0),
    skippedByReason: byOutcome.filter((r) => r.outcome === 'skipped').map((r) => ({ reason: r.reason ?? 'unknown', count: r.n })),
    skipped,
    writebackGiveUps: giveUps,
  };
}
