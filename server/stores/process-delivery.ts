import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { storeDeliveries } from '@/server/db/schema';
import { intakeStoreOrder, type IntakeResult } from './intake';
import { findStore } from './store-row';

/**
 * A stored delivery: its body is the order as WooCommerce built it at send time. A body that is no order (the
 * webhook user lost access and WooCommerce sent its REST error instead) names no order: reconciliation covers it.
 */
export async function processStoreDelivery(db: Db, deliveryId: number): Promise<IntakeResult | null> {
  const [delivery] = await db.select().from(storeDeliveries).where(eq(storeDeliveries.id, deliveryId));
  if (!delivery || delivery.processedAt) return null;
  const store = await findStore(db, delivery.storeId);
  if (!store || store.status === 'disconnected') return null;
  const body = delivery.body as Record<string, unknown>;
  const result = Number.isInteger(body.id) && Array.isArray(body.line_items) ? await intakeStoreOrder(db, store, body) : null;
  await db
    .update(storeDeliveries)
    .set({ processedAt: sql`now()` })
    .where(eq(storeDeliveries.id, deliveryId));
  return result;
}
