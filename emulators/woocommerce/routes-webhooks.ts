import { randomBytes } from 'node:crypto';
import { ping } from './deliveries';
import { fail, paged, type Reply } from './http';
import { gmt, local } from './orders';
import type { RestRequest } from './routes-orders';
import type { Shop, Webhook } from './shop';

const TOPICS = new Set([
  'order.created',
  'order.updated',
  'order.deleted',
  'order.restored',
  'product.created',
  'product.updated',
  'customer.created',
  'coupon.created',
]);

const webhookJson = (home: string, h: Webhook, edit: boolean) => ({
  id: h.id,
  name: h.name,
  status: h.status,
  topic: h.topic,
  resource: h.topic.split('.')[0],
  event: h.topic.split('.')[1],
  hooks:
    h.topic === 'order.created' ? ['woocommerce_new_order'] : h.topic === 'order.updated' ? ['woocommerce_update_order', 'woocommerce_order_refunded'] : [],
  delivery_url: h.delivery_url,
  ...(edit ? { secret: h.secret } : {}),
  date_created: local(h.date_created_gmt),
  date_created_gmt: h.date_created_gmt,
  date_modified: local(h.date_modified_gmt),
  date_modified_gmt: h.date_modified_gmt,
  _links: { self: [{ href: `${home}wp-json/wc/v3/webhooks/${h.id}` }], collection: [{ href: `${home}wp-json/wc/v3/webhooks` }] },
});

function createWebhook(shop: Shop, body: Record<string, unknown>): Webhook {
  if (body.id !== undefined) throw fail(400, 'woocommerce_rest_shop_webhook_exists', 'Cannot create existing webhook.');
  const topic = String(body.topic ?? '');
  if (!TOPICS.has(topic)) throw fail(400, 'woocommerce_rest_shop_webhook_invalid_topic', 'Webhook topic is required and must be valid.');
  const url = String(body.delivery_url ?? '');
  if (!/^https?:\/\//.test(url))
    throw fail(400, 'woocommerce_rest_shop_webhook_invalid_delivery_url', 'Webhook delivery URL must be a valid URL starting with http:// or https://.');
  const at = gmt(shop.now());
  const hook: Webhook = {
    id: shop.nextWebhook++,
    name: typeof body.name === 'string' && body.name ? body.name : `Webhook created on ${at}`,
    status: 'active', // `status` is ignored on create (§2.2)
    topic,
    delivery_url: url,
    // without a secret WooCommerce stores wp_generate_password(50, true, true)
    secret: typeof body.secret === 'string' && body.secret ? body.secret : randomBytes(40).toString('base64').slice(0, 50),
    failure_count: 0,
    pending_delivery: true,
    date_created_gmt: at,
    date_modified_gmt: at,
  };
  shop.webhooks.set(hook.id, hook);
  return hook;
}

async function updateWebhook(shop: Shop, hook: Webhook, body: Record<string, unknown>): Promise<Reply> {
  if (body.status !== undefined && !['active', 'paused', 'disabled'].includes(String(body.status)))
    throw fail(400, 'woocommerce_rest_shop_webhook_invalid_status', 'Webhook status must be valid.');
  const urlChanged = typeof body.delivery_url === 'string' && body.delivery_url !== hook.delivery_url;
  if (typeof body.delivery_url === 'string') hook.delivery_url = body.delivery_url;
  if (typeof body.secret === 'string') hook.secret = body.secret;
  if (typeof body.name === 'string') hook.name = body.name;
  if (typeof body.topic === 'string' && TOPICS.has(body.topic)) hook.topic = body.topic;
  // re-activating does not reset failure_count (not in the REST schema, §1.5)
  if (body.status !== undefined) hook.status = body.status as Webhook['status'];
  hook.date_modified_gmt = gmt(shop.now());
  if (hook.status === 'active' && (urlChanged || hook.pending_delivery)) await ping(shop, hook);
  return [200, webhookJson(shop.home, hook, true)];
}

async function webhookRoute(shop: Shop, { method, url, body }: RestRequest, id: string): Promise<Reply | undefined> {
  const hook = shop.webhooks.get(Number(id));
  if (!hook) throw fail(method === 'DELETE' || method === 'GET' ? 404 : 400, 'woocommerce_rest_shop_webhook_invalid_id', 'Invalid ID.');
  if (method === 'GET') return [200, webhookJson(shop.home, hook, url.searchParams.get('context') === 'edit')];
  if (method === 'DELETE') {
    if (!['1', 'true'].includes(url.searchParams.get('force') ?? String(body.force ?? '')))
      throw fail(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
    shop.webhooks.delete(hook.id);
    return [200, webhookJson(shop.home, hook, true)];
  }
  if (['PUT', 'POST', 'PATCH'].includes(method)) return updateWebhook(shop, hook, body);
  return undefined;
}

/** /webhooks and /webhooks/{id}; undefined for no route. */
export async function webhooksRoutes(shop: Shop, r: RestRequest): Promise<Reply | undefined> {
  const [id] = r.path;
  if (id) return webhookRoute(shop, r, id);
  if (r.method === 'GET') {
    const status = r.url.searchParams.get('status') ?? 'all';
    const list = [...shop.webhooks.values()].filter((h) => status === 'all' || h.status === status).sort((a, b) => b.id - a.id);
    return [200, paged(list, r.url, r.res, shop.home).map((h) => webhookJson(shop.home, h, r.url.searchParams.get('context') === 'edit'))];
  }
  if (r.method === 'POST') {
    const hook = createWebhook(shop, r.body);
    r.res.setHeader('Location', `${shop.home}wp-json/wc/v3/webhooks/${hook.id}`);
    await ping(shop, hook); // synchronous, inside the create request, result ignored (§1.7)
    return [201, webhookJson(shop.home, hook, true)];
  }
  return undefined;
}
