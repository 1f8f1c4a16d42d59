import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { storeDeliveries } from '@/server/db/schema';
import { intakeStoreOrder, type IntakeResult } from './intake';
import { platformOf } from './platforms';
import { findStore } from './store-row';

/** A stored delivery: its body is the order as the platform built it at send time (the adapter reads it). */
export async function processStoreDelivery(db: Db, deliveryId: number): Promise<IntakeResult | null> {
  const [delivery] = await db.select().from(storeDeliveries).where(eq(storeDeliveries.id, deliveryId));
  if (!delivery || delivery.processedAt) return null;
  const store = await findStore(db, delivery.storeId);
  if (!store || store.status === 'disconnected') return null;
  const order = platformOf(store).orderOf(delivery.body as Record<string, unknown>);
  const result = order ? await intakeStoreOrder(db, store, order) : null;
  await db
    .update(storeDeliveries)
    .set({ processedAt: sql`now()` })
    .where(eq(storeDeliveries.id, deliveryId));
  return result;
}
