import { processStoreDelivery } from '@/server/stores/process-delivery';
import { connectedStoreIds, syncStore } from '@/server/stores/sync';
import { writeBackDocument } from '@/server/stores/writeback';
import { enqueue } from '@/server/jobs/enqueue';
import type { TaskHandler } from './task';

export const storeDelivery: TaskHandler<'store_delivery'> =
  (db) =>
  async ({ deliveryId }) => {
    await processStoreDelivery(db, deliveryId);
  };

/** From the cron without a store: one job per connected store, so one slow store does not hold up the others. */
export const storeSync: TaskHandler<'store_sync'> =
  (db) =>
  async ({ storeId }) => {
    if (!storeId) {
      for (const id of await connectedStoreIds(db)) await enqueue(db, 'store_sync', { storeId: id });
      return;
    }
    await syncStore(db, storeId);
  };

/** A write-back the store can never accept (order deleted, key revoked) ends here, recorded for the store page. */
export const storeWriteback: TaskHandler<'store_writeback'> =
  (db) =>
  async ({ documentId }, helpers) => {
    if ((await writeBackDocument(db, documentId)) === 'gave_up') helpers.logger.warn(`store_writeback ${documentId}: gave up, the store refuses it for good`);
  };
