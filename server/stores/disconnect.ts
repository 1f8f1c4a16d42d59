import { and, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { storeConnections, storeWebhooks } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { platformOf } from './platforms';
import { findStore, storeApi } from './store-row';

export type DisconnectResult = { store: string; removed: number[]; not_removed: { id: number; error: string }[] };

/**
 * Removes our webhooks from the store and marks the connection disconnected. A store that cannot be reached is
 * still disconnected here; the webhooks left there are listed (their deliveries now get 401, and the platform
 * disables them after repeated failures).
 */
export async function disconnectStore(db: Db, storeId: string, scope?: Scope): Promise<DisconnectResult> {
  const store = await findStore(db, storeId);
  if (!store || (scope && (store.accountId !== scope.accountId || store.mode !== scope.mode)))
    throw new AppError('resource_missing', 'store', `No such store: ${storeId}.`);
  const hooks = await db.select().from(storeWebhooks).where(eq(storeWebhooks.storeId, storeId));
  const api = storeApi(store);
  const out: DisconnectResult = { store: storeId, removed: [], not_removed: [] };
  for (const hook of hooks) {
    try {
      await api.deleteWebhook(hook.remoteId);
      out.removed.push(hook.remoteId);
    } catch (err) {
      if (platformOf(store).classify(err) === 'gone') out.removed.push(hook.remoteId);
      else out.not_removed.push({ id: hook.remoteId, error: err instanceof Error ? err.message : String(err) });
    }
  }
  await db
    .update(storeConnections)
    .set({ status: 'disconnected', disconnectedAt: new Date() })
    .where(and(eq(storeConnections.id, storeId)));
  return out;
}
