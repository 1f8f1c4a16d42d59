import type { ApiKey } from './auth';
import { fire } from './deliveries';
import type { Reply } from './http';
import { buildOrder, buildRefund, orderJson, refundJson, type NewOrder, type RefundSpec } from './orders';
import { addKey, setStatus, touch, type Shop } from './shop';

function status(shop: Shop): Reply {
  return [
    200,
    {
      ...shop.counters,
      fail_deliveries: shop.failDeliveries,
      rest_enabled: shop.restEnabled,
      pending: shop.pending.size + shop.running.size,
      webhooks: [...shop.webhooks.values()].map((h) => ({
        id: h.id,
        topic: h.topic,
        status: h.status,
        failure_count: h.failure_count,
        delivery_url: h.delivery_url,
        pending_delivery: h.pending_delivery,
      })),
    },
  ];
}

function placeOrder(shop: Shop, body: Record<string, unknown>): Reply {
  // placedAt: an order that was in the shop before the test began (e.g. before the store was connected)
  const at = typeof body.placedAt === 'string' ? new Date(body.placedAt) : shop.now();
  if (Number.isNaN(at.getTime())) return [400, { error: `placedAt ${String(body.placedAt)} is not a date-time` }];
  const order = buildOrder(shop.ids, at, body as NewOrder & Record<string, unknown>);
  shop.orders.set(order.id, order);
  fire(shop, order, 'created');
  if (body.paid === true || body.completed === true) {
    setStatus(shop, order, body.completed === true ? 'completed' : 'processing');
    fire(shop, order, 'updated');
  }
  return [201, orderJson(order, shop.home)];
}

/** Reads, deletes, pays, completes, cancels or refunds one order, as the shop's admin would. */
function orderAction(shop: Shop, method: string, id: string, action: string | undefined, body: Record<string, unknown>): Reply | undefined {
  const order = shop.orders.get(Number(id));
  if (!order) return [404, { error: `no order ${id}` }];
  if (method === 'GET') return [200, { ...orderJson(order, shop.home), notes: order.notes }];
  // deleted permanently (bypassing the trash): the REST API then answers 404 for the order and its notes
  if (method === 'DELETE' && !action) {
    shop.orders.delete(order.id);
    return [200, { deleted: order.id }];
  }
  if (action === 'pay' || action === 'complete' || action === 'cancel') {
    setStatus(shop, order, { pay: 'processing', complete: 'completed', cancel: 'cancelled' }[action]);
    touch(shop, order);
    fire(shop, order, 'updated');
    return [200, orderJson(order, shop.home)];
  }
  if (action === 'refund') {
    const refund = buildRefund(shop.ids, shop.now(), order, body as RefundSpec);
    order.refunds.unshift(refund);
    touch(shop, order);
    fire(shop, order, 'updated'); // woocommerce_order_refunded → order.updated (no refund topic)
    return [201, refundJson(order, refund, shop.home)];
  }
  return undefined;
}

/** `/__control` (no auth): drives the shop in tests and dev. */
export async function control(shop: Shop, method: string, url: URL, body: Record<string, unknown>): Promise<Reply> {
  const parts = url.pathname
    .replace(/^\/__control\/?/, '')
    .split('/')
    .filter(Boolean);
  if (parts.length === 0 && method === 'GET') return status(shop);
  if (parts[0] === 'keys' && method === 'POST') {
    const k = addKey(
      shop,
      (body.permissions as ApiKey['permissions']) ?? 'read_write',
      body.consumer_key as string | undefined,
      body.consumer_secret as string | undefined,
    );
    return [201, { consumer_key: k.consumerKey, consumer_secret: k.consumerSecret, permissions: k.permissions }];
  }
  // a key revoked in WooCommerce → Settings → Advanced → REST API: its row is gone, so requests with it are
  // anonymous over HTTPS or fail OAuth's key lookup over HTTP (both 401)
  if (parts[0] === 'keys' && parts[1] && method === 'DELETE') {
    if (!shop.keys.delete(parts[1])) return [404, { error: `no key ${parts[1]}` }];
    return [200, { revoked: parts[1] }];
  }
  if (parts[0] === 'deliveries' && method === 'POST') {
    shop.failDeliveries = body.fail === true;
    return [200, { fail_deliveries: shop.failDeliveries }];
  }
  if (parts[0] === 'rest' && method === 'POST') {
    shop.restEnabled = body.enabled !== false;
    return [200, { rest_enabled: shop.restEnabled }];
  }
  if (parts[0] === 'idle' && method === 'POST') {
    while (shop.pending.size || shop.running.size) await new Promise((r) => setTimeout(r, 20));
    return [200, { ...shop.counters }];
  }
  if (parts[0] === 'orders' && !parts[1] && method === 'POST') return placeOrder(shop, body);
  if (parts[0] === 'orders' && parts[1]) return orderAction(shop, method, parts[1], parts[2], body) ?? [404, { error: 'unknown control request' }];
  return [404, { error: 'unknown control request' }];
}
