import { and, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { storeConnections, storeWebhooks, type StoreSyncResult } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { reportFailure } from '@/server/observability/failures';
import { checkEndpointUrl } from '@/server/webhooks/endpoint-url';
import { intakeStoreOrder } from './intake';
import type { StoreApi } from './platform';
import { platformOf } from './platforms';
import { findStore, reportStoreCallFailure, storeApi, type StoreRow } from './store-row';
import { registerWebhook } from './webhooks';

/** Listing overlaps the previous run so an order modified while it paged is not missed (woocommerce-rules.md §4.1). */
const OVERLAP_MS = 10 * 60_000;

/**
 * Our webhooks as the store sees them. WooCommerce disables a webhook after repeated failed deliveries and
 * re-activating it keeps the failure count (one more failure disables it again), so a webhook that is not active
 * or is gone is deleted and created afresh, with a new secret; each repair is said on the store page.
 */
async function repairWebhooks(db: Db, store: StoreRow, api: StoreApi, deliveryBase?: string): Promise<string[]> {
  const platform = platformOf(store);
  const remote = await api.webhooks();
  const ours = await db.select().from(storeWebhooks).where(eq(storeWebhooks.storeId, store.id));
  const said: string[] = [];
  for (const topic of platform.topics) {
    const mine = ours.filter((w) => w.topic === topic);
    const active = mine.find((w) => remote.some((r) => r.id === w.remoteId && r.status === 'active'));
    if (active) {
      await db
        .update(storeWebhooks)
        .set({ status: 'active', checkedAt: new Date() })
        .where(and(eq(storeWebhooks.storeId, store.id), eq(storeWebhooks.remoteId, active.remoteId)));
      continue;
    }
    const seen = mine.map((w) => remote.find((r) => r.id === w.remoteId)).find((r) => r);
    if (seen) await api.deleteWebhook(seen.id);
    await db.delete(storeWebhooks).where(and(eq(storeWebhooks.storeId, store.id), eq(storeWebhooks.topic, topic)));
    const why = seen ? `the store had set it ${seen.status}` : 'it was missing in the store';
    const created = await registerWebhook(db, platform, api, store.id, topic, deliveryBase, `re-created ${new Date().toISOString()}: ${why}`);
    said.push(`${topic}: ${why}; re-created as webhook ${created.id}`);
  }
  return said;
}

/**
 * Reconciliation (cron and `store sync`): repairs our webhooks, then lists every order modified since the last run
 * (minus an overlap; the first run from the invoicing start; paged, without a status filter so paging cannot skip
 * one) and takes each through the same intake as a delivery. The watermark is this run's start, saved only when the run completes.
 */
export async function syncStore(db: Db, storeId: string, o: { deliveryBase?: string; now?: Date } = {}): Promise<StoreSyncResult> {
  const store = await findStore(db, storeId);
  if (!store) throw new AppError('resource_missing', 'store', `No such store: ${storeId}.`);
  if (store.status !== 'connected') throw new AppError('resource_missing', 'store', `Store ${storeId} is ${store.status}.`);
  const startedAt = o.now ?? new Date();
  const result: StoreSyncResult = { orders: 0, invoiced: 0, corrected: 0, webhooks: [] };
  try {
    await checkEndpointUrl(store.url, store.mode); // the connect-time policy, again: DNS or the setting may have changed
    const api = storeApi(store);
    result.webhooks = await repairWebhooks(db, store, api, o.deliveryBase);
    if (result.webhooks.length) reportFailure('store_webhook_recreated', { storeId, accountId: store.accountId, mode: store.mode, webhooks: result.webhooks });
    // never before the invoicing start, older orders are not ours; but a listing compares whole seconds and is
    // exclusive (WooCommerce's modified_after), so it begins a second early to list an order of the start's second
    const start = store.invoiceFrom.getTime() - 1000;
    const since = new Date(Math.max(start, (store.lastSyncAt?.getTime() ?? 0) - OVERLAP_MS));
    for (let page = 1; ; page++) {
      const { orders, totalPages } = await api.ordersModifiedAfter(since, page);
      for (const order of orders) {
        const r = await intakeStoreOrder(db, store, order, () => api);
        result.orders += 1;
        if (r.invoiced) result.invoiced += 1;
        result.corrected += r.corrected;
      }
      if (page >= totalPages || orders.length === 0) break;
    }
  } catch (err) {
    result.error = err instanceof Error ? err.message : String(err);
    reportStoreCallFailure(store, 'sync', err);
    await db.update(storeConnections).set({ lastSyncResult: result }).where(eq(storeConnections.id, storeId));
    throw err;
  }
  await db.update(storeConnections).set({ lastSyncAt: startedAt, lastSyncResult: result }).where(eq(storeConnections.id, storeId));
  return result;
}

export async function connectedStoreIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: storeConnections.id }).from(storeConnections).where(eq(storeConnections.status, 'connected'));
  return rows.map((r) => r.id);
}
