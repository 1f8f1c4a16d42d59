import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { storeConnections, storeWebhooks } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { newId } from '@/server/ids';
import { sealJson } from '@/server/security/sealed-json';
import { checkEndpointUrl, resolveHost, type ResolveHost } from '@/server/webhooks/endpoint-url';
import type { StorePlatformId } from './platform';
import { platformOf } from './platforms';
import { registerWebhook } from './webhooks';

/** The shop's address and the platform's credential fields (WooCommerce: consumerKey, consumerSecret). */
export type ConnectStoreInput = { url: string } & Record<string, string>;
export type ConnectedStore = { store: string; webhooks: { id: number; topic: string; status: string }[] };
export type ConnectOptions = { platform?: StorePlatformId; resolve?: ResolveHost; deliveryBase?: string };

/**
 * Connects a store to a scope: checks the URL (live mode: https and a public host, the SSRF rules of webhook
 * endpoints), checks the credentials against the store (API reachable, keys valid, user may manage webhooks), then
 * registers our webhooks (which needs write permission). Anything that fails leaves nothing behind, here or in the
 * store, and names what failed.
 */
export async function connectStore(db: Db, scope: Scope, input: ConnectStoreInput, o: ConnectOptions = {}): Promise<ConnectedStore> {
  const platform = platformOf({ platform: o.platform ?? 'woocommerce' });
  const url = await checkEndpointUrl(input.url.trim(), scope.mode, o.resolve ?? resolveHost);
  const home = `${url.origin}${url.pathname.replace(/\/?$/, '/')}`;
  const credentials = platform.credentials(input);
  const [existing] = await db
    .select({ id: storeConnections.id })
    .from(storeConnections)
    .where(and(eq(storeConnections.accountId, scope.accountId), eq(storeConnections.mode, scope.mode), ne(storeConnections.status, 'disconnected')));
  if (existing) throw new AppError('store_already_connected', 'url', `Store ${existing.id} is connected to this mode; disconnect it first.`);

  const api = platform.api(home, credentials);
  await api.check();

  const storeId = newId('st');
  await db
    .insert(storeConnections)
    .values({ id: storeId, ...scope, platform: platform.id, url: home, credentials: sealJson(credentials), status: 'connecting' });
  const webhooks: ConnectedStore['webhooks'] = [];
  try {
    for (const topic of platform.topics) webhooks.push(await registerWebhook(db, platform, api, storeId, topic, o.deliveryBase));
  } catch (err) {
    await Promise.allSettled(webhooks.map((w) => api.deleteWebhook(w.id)));
    await db.delete(storeWebhooks).where(eq(storeWebhooks.storeId, storeId));
    await db.delete(storeConnections).where(eq(storeConnections.id, storeId));
    throw err;
  }
  // orders from before the connection are not invoiced: reconciliation starts now
  await db.update(storeConnections).set({ status: 'connected', lastSyncAt: new Date() }).where(eq(storeConnections.id, storeId));
  return { store: storeId, webhooks };
}
