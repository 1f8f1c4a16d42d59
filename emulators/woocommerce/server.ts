import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { authenticate, checkPermission, type ApiKey, type WcError } from './auth';
import { buildOrder, buildRefund, gmt, local, orderJson, refundJson, type NewOrder, type Order, type RefundSpec } from './orders';

/**
 * A WooCommerce shop for dev and tests (woocommerce-rules.md): REST v3 under `/wp-json/wc/v3` (orders with paging
 * headers, refunds, notes, meta update, webhooks CRUD) with WooCommerce's authentication, and webhook deliveries
 * shaped, signed, timed and disabled as WooCommerce does. `/__control` (no auth) drives the shop: keys (and their
 * revocation), orders (and their deletion), payment, refunds, failing deliveries, counters.
 */

export type WooEmulatorOptions = {
  port?: number;
  host?: string;
  /** Serve HTTPS with this certificate (Basic and query-string keys then work); plain HTTP otherwise. */
  tls?: { cert: string; key: string };
  /** The shop's clock (OAuth timestamps, order dates). */
  now?: () => Date;
  /** Delivery time-out; WooCommerce waits 60 s (MINUTE_IN_SECONDS). */
  deliveryTimeoutMs?: number;
  /** Action Scheduler delay before a queued delivery runs. */
  deliveryDelayMs?: number;
};

export type WooEmulator = { url: string; home: string; close: () => Promise<void> };

type Webhook = {
  id: number;
  name: string;
  status: 'active' | 'paused' | 'disabled';
  topic: string;
  delivery_url: string;
  secret: string;
  failure_count: number;
  pending_delivery: boolean;
  date_created_gmt: string;
  date_modified_gmt: string;
};

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
/** failed_delivery(): the 7th consecutive failure disables (counter > 5), the filter's default (§1.5). */
const MAX_FAILURES = 5;
const USER_AGENT = 'WooCommerce/10.2.0 Hookshot (WordPress/6.8.2)';

class HttpError extends Error {
  constructor(readonly wc: WcError | { status: number; code: string; message: string; data?: unknown }) {
    super(wc.message);
  }
}
const fail = (status: number, code: string, message: string) => new HttpError({ status, code, message });

/** wp_json_encode: `/` as `\/`, non-ASCII as \uXXXX; the signature covers exactly these bytes. */
const wpJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export async function startWooEmulator(options: WooEmulatorOptions = {}): Promise<WooEmulator> {
  const now = options.now ?? (() => new Date());
  const ssl = !!options.tls;
  const keys = new Map<string, ApiKey>();
  const orders = new Map<number, Order>();
  const webhooks = new Map<number, Webhook>();
  const pending = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let nextId = 4800;
  let nextWebhook = 1;
  let nextNote = 1;
  let failDeliveries = false;
  let restEnabled = true;
  const counters = { requests: 0, deliveries: 0, delivered: 0, failed: 0, pings: 0 };
  let home = '';
  const ids = () => nextId++;
  const deliveryTimeout = options.deliveryTimeoutMs ?? 60_000;

  function addKey(permissions: ApiKey['permissions'] = 'read_write', key?: string, secret?: string): ApiKey {
    const k: ApiKey = {
      consumerKey: key ?? `ck_${randomBytes(20).toString('hex')}`,
      consumerSecret: secret ?? `cs_${randomBytes(20).toString('hex')}`,
      permissions,
      nonces: new Map(),
    };
    keys.set(k.consumerKey, k);
    return k;
  }

  /** woocommerce_new_order / woocommerce_update_order → the webhooks listening to that topic (§1.6). */
  function fire(order: Order, event: 'created' | 'updated') {
    if (['draft', 'auto-draft', 'checkout-draft'].includes(order.status) && event === 'created') return;
    for (const hook of webhooks.values()) {
      if (hook.status !== 'active' || hook.topic !== `order.${event}`) continue;
      const slot = `${hook.id}:${order.id}`;
      // a delivery still pending for this (webhook, order) absorbs the new event: one delivery, built when sent
      if (pending.has(slot)) continue;
      pending.set(
        slot,
        setTimeout(() => {
          pending.delete(slot);
          const p = deliver(hook.id, order.id).finally(() => running.delete(p));
          running.add(p);
        }, options.deliveryDelayMs ?? 0),
      );
    }
  }

  function touch(order: Order) {
    const at = gmt(now());
    order.date_modified_gmt = at > order.date_modified_gmt ? at : order.date_modified_gmt;
  }

  async function deliver(webhookId: number, orderId: number): Promise<void> {
    const hook = webhooks.get(webhookId);
    const order = orders.get(orderId);
    if (!hook || !order || hook.status !== 'active') return;
    counters.deliveries += 1;
    const body = wpJson(orderJson(order, home)).trim();
    const signature = createHmac('sha256', hook.secret).update(body).digest('base64');
    const [resource, event] = hook.topic.split('.');
    let status = 0;
    if (!failDeliveries) {
      try {
        const res = await fetch(hook.delivery_url, {
          method: 'POST',
          redirect: 'manual',
          signal: AbortSignal.timeout(deliveryTimeout),
          headers: {
            'User-Agent': USER_AGENT,
            'Content-Type': 'application/json',
            'X-WC-Webhook-Source': home,
            'X-WC-Webhook-Topic': hook.topic,
            'X-WC-Webhook-Resource': resource!,
            'X-WC-Webhook-Event': event!,
            'X-WC-Webhook-Signature': signature,
            'X-WC-Webhook-ID': String(hook.id),
            // wp_hash(webhook_id . time()): the same for two deliveries of one webhook in one second
            'X-WC-Webhook-Delivery-ID': createHmac('md5', 'wp-salt')
              .update(`${hook.id}${Math.floor(now().getTime() / 1000)}`)
              .digest('hex'),
          },
          body,
        });
        status = res.status;
        await res.arrayBuffer().catch(() => undefined);
      } catch {
        status = 0; // WP_Error: time-out, refused, DNS
      }
    }
    if (status >= 200 && status < 303) {
      counters.delivered += 1;
      hook.failure_count = 0;
    } else {
      counters.failed += 1;
      if (hook.failure_count > MAX_FAILURES) hook.status = 'disabled';
      else hook.failure_count += 1;
    }
  }

  /** deliver_ping(): unsigned form body `webhook_id=N`, 5 s, success only on exactly 200 (§1.7). */
  async function ping(hook: Webhook): Promise<void> {
    counters.pings += 1;
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

  const webhookJson = (h: Webhook, edit: boolean) => ({
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

  function paged<T>(all: T[], url: URL, res: ServerResponse): T[] {
    const page = int(url.searchParams.get('page') ?? '1', 'page', 1, Infinity);
    const perPage = int(url.searchParams.get('per_page') ?? '10', 'per_page', 1, 100);
    const totalPages = Math.ceil(all.length / perPage);
    res.setHeader('X-WP-Total', String(all.length));
    res.setHeader('X-WP-TotalPages', String(totalPages));
    // the Link URLs repeat every query parameter given, secrets included (woocommerce-rules.md §3.4)
    const link = (p: number) => {
      const u = new URL(url.pathname, home);
      for (const [k, v] of url.searchParams) if (k !== 'page') u.searchParams.set(k, v);
      u.searchParams.set('page', String(p));
      return u.toString();
    };
    const links = [];
    if (page > 1 && page - 1 <= totalPages) links.push(`<${link(page - 1)}>; rel="prev"`);
    if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
    if (links.length) res.setHeader('Link', links.join(', '));
    return all.slice((page - 1) * perPage, page * perPage);
  }

  function listOrders(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const gmtDates = ['1', 'true'].includes(q.get('dates_are_gmt') ?? '');
    const bound = (name: string) => {
      const v = q.get(name);
      if (!v) return null;
      if (Number.isNaN(Date.parse(v)))
        throw new HttpError({
          status: 400,
          code: 'rest_invalid_param',
          message: `Invalid parameter(s): ${name}`,
          data: { status: 400, params: { [name]: `${name} is not a valid date.` } },
        });
      return v.replace(/Z$/, '').slice(0, 19);
    };
    const [after, before, modAfter, modBefore] = ['after', 'before', 'modified_after', 'modified_before'].map(bound);
    const statuses = (q.get('status') ?? 'any').split(',').filter(Boolean);
    const pick = (gmtValue: string) => (gmtDates ? gmtValue : local(gmtValue)!);
    let list = [...orders.values()].filter((o) => {
      if (!statuses.includes('any') && !statuses.includes(o.status)) return false;
      if (statuses.includes('any') && o.status === 'trash') return false;
      // WordPress date queries without `inclusive` are exclusive
      if (after && !(pick(o.date_created_gmt) > after)) return false;
      if (before && !(pick(o.date_created_gmt) < before)) return false;
      if (modAfter && !(pick(o.date_modified_gmt) > modAfter)) return false;
      if (modBefore && !(pick(o.date_modified_gmt) < modBefore)) return false;
      return true;
    });
    const orderby = q.get('orderby') ?? 'date';
    const key = (o: Order) =>
      orderby === 'id'
        ? String(o.id).padStart(12, '0')
        : orderby === 'modified'
          ? `${o.date_modified_gmt}${String(o.id).padStart(12, '0')}`
          : `${o.date_created_gmt}${String(o.id).padStart(12, '0')}`;
    list = list.sort((a, b) => (key(a) < key(b) ? -1 : 1));
    if ((q.get('order') ?? 'desc') === 'desc') list.reverse();
    return paged(list, url, res).map((o) => orderJson(o, home));
  }

  function findOrder(id: string): Order {
    const order = orders.get(Number(id));
    if (!order) throw fail(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    return order;
  }

  async function createWebhook(body: Record<string, unknown>): Promise<Webhook> {
    if (body.id !== undefined) throw fail(400, 'woocommerce_rest_shop_webhook_exists', 'Cannot create existing webhook.');
    const topic = String(body.topic ?? '');
    if (!TOPICS.has(topic)) throw fail(400, 'woocommerce_rest_shop_webhook_invalid_topic', 'Webhook topic is required and must be valid.');
    const url = String(body.delivery_url ?? '');
    if (!/^https?:\/\//.test(url))
      throw fail(400, 'woocommerce_rest_shop_webhook_invalid_delivery_url', 'Webhook delivery URL must be a valid URL starting with http:// or https://.');
    const at = gmt(now());
    const hook: Webhook = {
      id: nextWebhook++,
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
    webhooks.set(hook.id, hook);
    return hook;
  }

  async function rest(method: string, url: URL, body: Record<string, unknown>, res: ServerResponse): Promise<[number, unknown]> {
    const parts = url.pathname
      .replace(/^\/wp-json\/wc\/v3\/?/, '')
      .split('/')
      .filter(Boolean);
    const [resource, id, sub, subId] = parts;
    if (resource === 'orders' && !id && method === 'GET') return [200, listOrders(url, res)];
    if (resource === 'orders' && id && !sub) {
      const order = findOrder(id);
      if (method === 'GET') return [200, orderJson(order, home)];
      if (['PUT', 'POST', 'PATCH'].includes(method)) {
        // update_meta_data(key, value, id ?? ''): merge, one entry per key (§4.4)
        for (const m of Array.isArray(body.meta_data) ? (body.meta_data as { id?: number; key: string; value: unknown }[]) : []) {
          const existing = order.meta_data.find((e) => (m.id ? e.id === m.id : e.key === m.key));
          if (existing) existing.value = m.value;
          else order.meta_data.push({ id: ids(), key: m.key, value: m.value });
        }
        if (typeof body.status === 'string') setStatus(order, body.status);
        touch(order);
        fire(order, 'updated');
        return [200, orderJson(order, home)];
      }
    }
    if (resource === 'orders' && id && sub === 'refunds' && method === 'GET') {
      const order = orders.get(Number(id));
      // these two errors carry 404 as plain data, which WordPress turns into HTTP 500 (§4.2)
      if (!order) throw new HttpError({ status: 500, code: 'woocommerce_rest_invalid_order_id', message: 'Invalid order ID.', data: 404 });
      if (!subId) return [200, paged(order.refunds, url, res).map((r) => refundJson(order, r, home))];
      const refund = order.refunds.find((r) => String(r.id) === subId);
      if (!refund) throw new HttpError({ status: 500, code: 'woocommerce_rest_invalid_order_refund_id', message: 'Invalid order refund ID.', data: 404 });
      return [200, refundJson(order, refund, home)];
    }
    if (resource === 'orders' && id && sub === 'notes') {
      const order = orders.get(Number(id));
      if (!order) throw fail(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
      if (method === 'GET') return [200, order.notes];
      if (method === 'POST') {
        if (typeof body.note !== 'string' || !body.note) throw fail(400, 'rest_missing_callback_param', 'Missing parameter(s): note');
        const at = gmt(now());
        const note = {
          id: nextNote++,
          author: body.added_by_user ? 'admin' : 'system',
          date_created: local(at)!,
          date_created_gmt: at,
          note: body.note,
          customer_note: body.customer_note === true,
        };
        // a note is a comment: it does not save the order, so no order.updated
        order.notes.push(note);
        res.setHeader('Location', `${home}wp-json/wc/v3/orders/${order.id}/notes/${note.id}`);
        return [201, note];
      }
    }
    if (resource === 'webhooks') {
      if (!id && method === 'GET') {
        const status = url.searchParams.get('status') ?? 'all';
        const list = [...webhooks.values()].filter((h) => status === 'all' || h.status === status).sort((a, b) => b.id - a.id);
        return [200, paged(list, url, res).map((h) => webhookJson(h, url.searchParams.get('context') === 'edit'))];
      }
      if (!id && method === 'POST') {
        const hook = await createWebhook(body);
        res.setHeader('Location', `${home}wp-json/wc/v3/webhooks/${hook.id}`);
        await ping(hook); // synchronous, inside the create request, result ignored (§1.7)
        return [201, webhookJson(hook, true)];
      }
      if (id) {
        const hook = webhooks.get(Number(id));
        if (!hook) throw fail(method === 'DELETE' || method === 'GET' ? 404 : 400, 'woocommerce_rest_shop_webhook_invalid_id', 'Invalid ID.');
        if (method === 'GET') return [200, webhookJson(hook, url.searchParams.get('context') === 'edit')];
        if (method === 'DELETE') {
          if (!['1', 'true'].includes(url.searchParams.get('force') ?? String(body.force ?? '')))
            throw fail(501, 'woocommerce_rest_trash_not_supported', 'Webhooks do not support trashing.');
          webhooks.delete(hook.id);
          return [200, webhookJson(hook, true)];
        }
        if (['PUT', 'POST', 'PATCH'].includes(method)) {
          if (body.status !== undefined && !['active', 'paused', 'disabled'].includes(String(body.status)))
            throw fail(400, 'woocommerce_rest_shop_webhook_invalid_status', 'Webhook status must be valid.');
          const urlChanged = typeof body.delivery_url === 'string' && body.delivery_url !== hook.delivery_url;
          if (typeof body.delivery_url === 'string') hook.delivery_url = body.delivery_url;
          if (typeof body.secret === 'string') hook.secret = body.secret;
          if (typeof body.name === 'string') hook.name = body.name;
          if (typeof body.topic === 'string' && TOPICS.has(body.topic)) hook.topic = body.topic;
          // re-activating does not reset failure_count (not in the REST schema, §1.5)
          if (body.status !== undefined) hook.status = body.status as Webhook['status'];
          hook.date_modified_gmt = gmt(now());
          if (hook.status === 'active' && (urlChanged || hook.pending_delivery)) await ping(hook);
          return [200, webhookJson(hook, true)];
        }
      }
    }
    throw fail(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  function setStatus(order: Order, status: string) {
    order.status = status;
    // date_paid is stamped the first time the order reaches processing (or completed) (woocommerce.md §5)
    if ((status === 'processing' || status === 'completed') && !order.date_paid_gmt) order.date_paid_gmt = gmt(now());
    if (status === 'completed' && !order.date_completed_gmt) order.date_completed_gmt = gmt(now());
  }

  async function control(method: string, url: URL, body: Record<string, unknown>): Promise<[number, unknown]> {
    const parts = url.pathname
      .replace(/^\/__control\/?/, '')
      .split('/')
      .filter(Boolean);
    if (parts.length === 0 && method === 'GET') {
      return [
        200,
        {
          ...counters,
          fail_deliveries: failDeliveries,
          rest_enabled: restEnabled,
          pending: pending.size + running.size,
          webhooks: [...webhooks.values()].map((h) => ({
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
    if (parts[0] === 'keys' && method === 'POST') {
      const k = addKey(
        (body.permissions as ApiKey['permissions']) ?? 'read_write',
        body.consumer_key as string | undefined,
        body.consumer_secret as string | undefined,
      );
      return [201, { consumer_key: k.consumerKey, consumer_secret: k.consumerSecret, permissions: k.permissions }];
    }
    // a key revoked in WooCommerce → Settings → Advanced → REST API: its row is gone, so requests with it are
    // anonymous over HTTPS or fail OAuth's key lookup over HTTP (both 401)
    if (parts[0] === 'keys' && parts[1] && method === 'DELETE') {
      if (!keys.delete(parts[1])) return [404, { error: `no key ${parts[1]}` }];
      return [200, { revoked: parts[1] }];
    }
    if (parts[0] === 'deliveries' && method === 'POST') {
      failDeliveries = body.fail === true;
      return [200, { fail_deliveries: failDeliveries }];
    }
    if (parts[0] === 'rest' && method === 'POST') {
      restEnabled = body.enabled !== false;
      return [200, { rest_enabled: restEnabled }];
    }
    if (parts[0] === 'idle' && method === 'POST') {
      while (pending.size || running.size) await new Promise((r) => setTimeout(r, 20));
      return [200, { ...counters }];
    }
    if (parts[0] === 'orders' && !parts[1] && method === 'POST') {
      // placedAt: an order that was in the shop before the test began (e.g. before the store was connected)
      const at = typeof body.placedAt === 'string' ? new Date(body.placedAt) : now();
      if (Number.isNaN(at.getTime())) return [400, { error: `placedAt ${String(body.placedAt)} is not a date-time` }];
      const order = buildOrder(ids, at, body as NewOrder & Record<string, unknown>);
      orders.set(order.id, order);
      fire(order, 'created');
      if (body.paid === true || body.completed === true) {
        setStatus(order, body.completed === true ? 'completed' : 'processing');
        fire(order, 'updated');
      }
      return [201, orderJson(order, home)];
    }
    if (parts[0] === 'orders' && parts[1]) {
      const order = orders.get(Number(parts[1]));
      if (!order) return [404, { error: `no order ${parts[1]}` }];
      if (method === 'GET') return [200, { ...orderJson(order, home), notes: order.notes }];
      // deleted permanently (bypassing the trash): the REST API then answers 404 for the order and its notes
      if (method === 'DELETE' && !parts[2]) {
        orders.delete(order.id);
        return [200, { deleted: order.id }];
      }
      const action = parts[2];
      if (action === 'pay' || action === 'complete' || action === 'cancel') {
        setStatus(order, { pay: 'processing', complete: 'completed', cancel: 'cancelled' }[action]);
        touch(order);
        fire(order, 'updated');
        return [200, orderJson(order, home)];
      }
      if (action === 'refund') {
        const refund = buildRefund(ids, now(), order, body as RefundSpec);
        order.refunds.unshift(refund);
        touch(order);
        fire(order, 'updated'); // woocommerce_order_refunded → order.updated (no refund topic)
        return [201, refundJson(order, refund, home)];
      }
    }
    return [404, { error: 'unknown control request' }];
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', home);
    const raw = await readAll(req);
    const type = req.headers['content-type'] ?? '';
    const form = type.includes('application/x-www-form-urlencoded') ? new URLSearchParams(raw) : null;
    let body: Record<string, unknown> = {};
    try {
      body = form ? Object.fromEntries(form) : raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    } catch {
      return send(res, 400, { code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400 } });
    }
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname.startsWith('/__control')) {
      const [status, out] = await control(method, url, body);
      return send(res, status, out);
    }
    counters.requests += 1;
    if (!restEnabled) {
      // a security plugin switched the REST API off: an HTML page, not JSON (§5)
      res.writeHead(404, { 'content-type': 'text/html; charset=UTF-8' }).end('<!doctype html><title>Page not found</title><h1>Nothing here</h1>');
      return;
    }
    if (url.pathname === '/wp-json' || url.pathname === '/wp-json/') {
      return send(res, 200, {
        name: 'Kawowy Świat (emulator)',
        url: home.replace(/\/$/, ''),
        home: home.replace(/\/$/, ''),
        namespaces: ['oembed/1.0', 'wc/v1', 'wc/v2', 'wc/v3', 'wp/v2'],
      });
    }
    if (!url.pathname.startsWith('/wp-json/wc/v3/'))
      return send(res, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    const auth = authenticate(
      { method, path: url.pathname, query: url.searchParams, form, authorization: req.headers.authorization, ssl, home, now: now() },
      keys,
    );
    if ('error' in auth) return sendError(res, auth.error);
    if ('anonymous' in auth) {
      const what =
        method === 'GET' ? 'woocommerce_rest_cannot_view' : method === 'DELETE' ? 'woocommerce_rest_cannot_delete' : 'woocommerce_rest_cannot_create';
      return sendError(res, {
        status: 401,
        code: what,
        message: method === 'GET' ? 'Sorry, you cannot list resources.' : 'Sorry, you are not allowed to create resources.',
      });
    }
    const denied = checkPermission(auth.key, method);
    if (denied) return sendError(res, denied);
    try {
      const [status, out] = await rest(method, url, body, res);
      return send(res, status, out);
    } catch (err) {
      if (err instanceof HttpError) return sendError(res, err.wc);
      throw err;
    }
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) return sendError(res, err.wc);
      send(res, 400, { error: err instanceof Error ? err.message : String(err) });
    });
  };
  const server = options.tls ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  home = `${ssl ? 'https' : 'http'}://${host}:${port}/`;
  return {
    url: home.replace(/\/$/, ''),
    home,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const t of pending.values()) clearTimeout(t);
        pending.clear();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

function int(raw: string, name: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new HttpError({
      status: 400,
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${name}`,
      data: { status: 400, params: { [name]: `${name} must be between ${min} (inclusive) and ${max} (inclusive)` } },
    });
  }
  return n;
}

async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}

function sendError(res: ServerResponse, e: { status: number; code: string; message: string; data?: unknown; headers?: Record<string, string> }) {
  res
    .writeHead(e.status, { 'content-type': 'application/json; charset=UTF-8', ...(e.headers ?? {}) })
    .end(JSON.stringify({ code: e.code, message: e.message, data: e.data ?? { status: e.status } }));
}
