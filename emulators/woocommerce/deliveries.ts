import { createHmac } from 'node:crypto';
import { orderJson, type Order } from './orders';
import type { Shop, Webhook } from './shop';

/** failed_delivery(): the 7th consecutive failure disables (counter > 5), the filter's default (§1.5). */
const MAX_FAILURES = 5;
const USER_AGENT = 'WooCommerce/10.2.0 Hookshot (WordPress/6.8.2)';

/** wp_json_encode: `/` as `\/`, non-ASCII as \uXXXX; the signature covers exactly these bytes. */
const wpJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** woocommerce_new_order / woocommerce_update_order → the webhooks listening to that topic (§1.6). */
export function fire(shop: Shop, order: Order, event: 'created' | 'updated') {
  if (['draft', 'auto-draft', 'checkout-draft'].includes(order.status) && event === 'created') return;
  for (const hook of shop.webhooks.values()) {
    if (hook.status !== 'active' || hook.topic !== `order.${event}`) continue;
    const slot = `${hook.id}:${order.id}`;
    // a delivery still pending for this (webhook, order) absorbs the new event: one delivery, built when sent
    if (shop.pending.has(slot)) continue;
    shop.pending.set(
      slot,
      setTimeout(() => {
        shop.pending.delete(slot);
        const p = deliver(shop, hook.id, order.id).finally(() => shop.running.delete(p));
        shop.running.add(p);
      }, shop.deliveryDelayMs),
    );
  }
}

/** Posts one delivery, signed as WooCommerce signs it; the HTTP status, or 0 when none came (WP_Error). */
async function post(shop: Shop, hook: Webhook, body: string): Promise<number> {
  const signature = createHmac('sha256', hook.secret).update(body).digest('base64');
  const [resource, event] = hook.topic.split('.');
  try {
    const res = await fetch(hook.delivery_url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(shop.deliveryTimeoutMs),
      headers: {
        'User-Agent': USER_AGENT,
        'Content-Type': 'application/json',
        'X-WC-Webhook-Source': shop.home,
        'X-WC-Webhook-Topic': hook.topic,
        'X-WC-Webhook-Resource': resource!,
        'X-WC-Webhook-Event': event!,
        'X-WC-Webhook-Signature': signature,
        'X-WC-Webhook-ID': String(hook.id),
        // wp_hash(webhook_id . time()): the same for two deliveries of one webhook in one second
        'X-WC-Webhook-Delivery-ID': createHmac('md5', 'wp-salt')
          .update(`${hook.id}${Math.floor(shop.now().getTime() / 1000)}`)
          .digest('hex'),
      },
      body,
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return 0; // WP_Error: time-out, refused, DNS
  }
}

async function deliver(shop: Shop, webhookId: number, orderId: number): Promise<void> {
  const hook = shop.webhooks.get(webhookId);
  const order = shop.orders.get(orderId);
  if (!hook || !order || hook.status !== 'active') return;
  shop.counters.deliveries += 1;
  const body = wpJson(orderJson(order, shop.home)).trim();
  const status = shop.failDeliveries ? 0 : await post(shop, hook, body);
  if (status >= 200 && status < 303) {
    shop.counters.delivered += 1;
    hook.failure_count = 0;
  } else {
    shop.counters.failed += 1;
    if (hook.failure_count > MAX_FAILURES) hook.status = 'disabled';
    else hook.failure_count += 1;
  }
}

/** deliver_ping(): unsigned form body `webhook_id=N`, 5 s, success only on exactly 200 (§1.7). */
export async function ping(shop: Shop, hook: Webhook): Promise<void> {
  shop.counters.pings += 1;
  try {
    const res = await fetch(hook.delivery_url, {
      method: 'POST',
      signal: AbortSignal.timeout(5_000),
      headers: { 'User-Agent': USER_AGENT, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `webhook_id=${hook.id}`,
    });
    await res.arrayBuffer().catch(() => undefined);
    if (res.status === 200) hook.pending_delivery = false;
  } catch {
    // the REST answer is 201 either way; pending_delivery stays true
  }
}
