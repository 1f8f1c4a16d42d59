import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { storeConnections, storeWebhooks } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { newId } from '@/server/ids';
import { sealJson } from '@/server/security/sealed-json';
import { checkEndpointUrl, resolveHost, type ResolveHost } from '@/server/webhooks/endpoint-url';
import { STORE_TOPICS, registerWebhook } from './webhooks';
import { wooClient } from './woocommerce/client';

export type ConnectStoreInput = { url: string; consumerKey: string; consumerSecret: string };
export type ConnectedStore = { store: string; webhooks: { id: number; topic: string; status: string }[] };
export type ConnectOptions = { resolve?: ResolveHost; deliveryBase?: string };

/**
 * Connects a WooCommerce store to a scope: checks the URL (live mode: https and a public host, the SSRF rules of
 * webhook endpoints), checks the keys against the store (REST reachable, keys valid, user may manage webhooks),
 * then registers our order.created and order.updated webhooks (which needs write permission). Anything that fails
 * leaves nothing behind, here or in the store, and names what failed.
 */
export async function connectStore(db: Db, scope: Scope, input: ConnectStoreInput, o: ConnectOptions = {}): Promise<ConnectedStore> {
  const url = await checkEndpointUrl(input.url.trim(), scope.mode, o.resolve ?? resolveHost);
  const home = `${url.origin}${url.pathname.replace(/\/?$/, '/')}`;
  if (!input.consumerKey.trim()) throw new AppError('parameter_missing', 'consumer_key', 'The consumer key is required.');
  if (!input.consumerSecret.trim()) throw new AppError('parameter_missing', 'consumer_secret', 'The consumer secret is required.');
  const credentials = { consumerKey: input.consumerKey.trim(), consumerSecret: input.consumerSecret.trim() };
  const [existing] = await db
    .select({ id: storeConnections.id })
    .from(storeConnections)
    .where(and(eq(storeConnections.accountId, scope.accountId), eq(storeConnections.mode, scope.mode), ne(storeConnections.status, 'disconnected')));
  if (existing) throw new AppError('store_already_connected', 'url', `Store ${existing.id} is connected to this mode; disconnect it first.`);

  const client = wooClient(home, credentials);
  await client.probe();
  await client.webhooks(); // keys valid, read permission, and a user that may manage webhooks

  const storeId = newId('st');
  await db.insert(storeConnections).values({ id: storeId, ...scope, url: home, credentials: sealJson(credentials), status: 'connecting' });
  const webhooks: ConnectedStore['webhooks'] = [];
  try {
    for (const topic of STORE_TOPICS) webhooks.push(await registerWebhook(db, client, storeId, topic, o.deliveryBase));
  } catch (err) {
    await Promise.allSettled(webhooks.map((w) => client.deleteWebhook(w.id)));
    await db.delete(storeWebhooks).where(eq(storeWebhooks.storeId, storeId));
    await db.delete(storeConnections).where(eq(storeConnections.id, storeId));
    throw err;
  }
  // orders from before the connection are not invoiced: reconciliation starts now
  await db.update(storeConnections).set({ status: 'connected', lastSyncAt: new Date() }).where(eq(storeConnections.id, storeId));
  return { store: storeId, webhooks };
}
