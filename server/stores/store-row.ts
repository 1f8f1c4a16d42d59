import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { storeConnections } from '@/server/db/schema';
import { unsealJson } from '@/server/security/sealed-json';
import { wooClient, type WooClient, type WooCredentials } from './woocommerce/client';
import type { StoreSettings } from './woocommerce/decide';

export type StoreRow = typeof storeConnections.$inferSelect;

export async function findStore(db: DbOrTx, storeId: string): Promise<StoreRow | undefined> {
  const [row] = await db.select().from(storeConnections).where(eq(storeConnections.id, storeId));
  return row;
}

/** The store's REST client with its unsealed keys. */
export const storeClient = (store: StoreRow): WooClient => wooClient(store.url, unsealJson<WooCredentials>(store.credentials));

export const storeSettings = (store: StoreRow): StoreSettings => ({
  invoiceStatuses: store.invoiceStatuses,
  nipMetaKeys: store.nipMetaKeys,
  paymentMethods: store.paymentMethods,
});

export const scopeOf = (store: StoreRow) => ({ accountId: store.accountId, mode: store.mode });
