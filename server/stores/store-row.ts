import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { storeConnections } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { reportFailure } from '@/server/observability/failures';
import { unsealJson } from '@/server/security/sealed-json';
import { StoreRequestError, type StoreApi, type StoreSettings } from './platform';
import { platformOf } from './platforms';

export type StoreRow = typeof storeConnections.$inferSelect;

export async function findStore(db: DbOrTx, storeId: string): Promise<StoreRow | undefined> {
  const [row] = await db.select().from(storeConnections).where(eq(storeConnections.id, storeId));
  return row;
}

/** The store's API with its unsealed credentials. */
export const storeApi = (store: StoreRow): StoreApi => platformOf(store).api(store.url, unsealJson<Record<string, string>>(store.credentials));

export const storeSettings = (store: StoreRow): StoreSettings => ({
  invoiceStatuses: store.invoiceStatuses,
  nipMetaKeys: store.nipMetaKeys,
  paymentMethods: store.paymentMethods,
});

export const scopeOf = (store: StoreRow) => ({ accountId: store.accountId, mode: store.mode });

/**
 * A call to the store that failed (the job that made it tries again); its code says unreachable, keys refused, REST
 * off. Other errors (our database) are the job's failure, reported there.
 */
export function reportStoreCallFailure(store: StoreRow, step: 'sync' | 'writeback', err: unknown, ids: { documentId?: string } = {}): void {
  if (!(err instanceof AppError) && !(err instanceof StoreRequestError)) return;
  const code = err instanceof AppError ? err.code : `http_${err.status}`;
  reportFailure('store_call_failed', { storeId: store.id, accountId: store.accountId, mode: store.mode, ...ids, step, code, error: err.message });
}
