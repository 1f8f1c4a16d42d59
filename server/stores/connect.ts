import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { storeConnections, storeWebhooks } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { newId } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { warsawMidnight } from '@/server/calendar/dates';
import { sealJson } from '@/server/security/sealed-json';
import { checkEndpointUrl, resolveHost, type ResolveHost } from '@/server/webhooks/endpoint-url';
import type { StorePlatformId } from './platform';
import { platformOf } from './platforms';
import { registerWebhook } from './webhooks';

/** The shop's address and the platform's credential fields (WooCommerce: consumerKey, consumerSecret). */
export type ConnectStoreInput = { url: string } & Record<string, string>;
export type ConnectedStore = { store: string; invoiceFrom: Date; webhooks: { id: number; topic: string; status: string }[] };
export type ConnectOptions = {
  platform?: StorePlatformId;
  /** Invoice orders placed since this Warsaw date (YYYY-MM-DD); unset: only orders placed after connecting. */
  since?: string;
  resolve?: ResolveHost;
  deliveryBase?: string;
};

/**
 * Where invoicing starts: the chosen date's Warsaw midnight, or the second of connecting. Shop dates are whole
 * seconds, so an order stamped in that second counts as placed after it: none placed after connecting is missed.
 */
function invoiceStart(since: string | undefined, now: Date): Date {
  if (since === undefined) return new Date(Math.floor(now.getTime() / 1000) * 1000);
  const from = warsawMidnight(since);
  if (!from) throw new AppError('parameter_invalid', 'since', `since must be a date YYYY-MM-DD, not ${JSON.stringify(since)}.`);
  if (from > now) throw new AppError('parameter_invalid', 'since', `since (${since}) is in the future: orders after connecting are invoiced anyway.`);
  return from;
}

/**
 * Connects a store to a scope, invoicing orders placed from `since` or from now: checks the URL (live mode: https
 * and a public host, the SSRF rules of webhook endpoints), checks the credentials against the store (API reachable,
 * keys valid, user may manage webhooks), then registers our webhooks (which needs write permission). Anything that
 * fails leaves nothing behind, here or in the store, and names what failed. With an earlier start, a
 * reconciliation is queued at once to pick up the older orders.
 */
export async function connectStore(db: Db, scope: Scope, input: ConnectStoreInput, o: ConnectOptions = {}): Promise<ConnectedStore> {
  const platform = platformOf({ platform: o.platform ?? 'woocommerce' });
  const invoiceFrom = invoiceStart(o.since, new Date());
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
    .values({ id: storeId, ...scope, platform: platform.id, url: home, credentials: sealJson(credentials), invoiceFrom, status: 'connecting' });
  const webhooks: ConnectedStore['webhooks'] = [];
  try {
    for (const topic of platform.topics) webhooks.push(await registerWebhook(db, platform, api, storeId, topic, o.deliveryBase));
  } catch (err) {
    await Promise.allSettled(webhooks.map((w) => api.deleteWebhook(w.id)));
    await db.delete(storeWebhooks).where(eq(storeWebhooks.storeId, storeId));
    await db.delete(storeConnections).where(eq(storeConnections.id, storeId));
    throw err;
  }
  await db.update(storeConnections).set({ status: 'connected' }).where(eq(storeConnections.id, storeId));
  if (o.since !== undefined) await enqueue(db, 'store_sync', { storeId });
  return { store: storeId, invoiceFrom, webhooks };
}
