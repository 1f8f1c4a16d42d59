import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { authenticate, checkPermission, type WcError } from './auth';
import { fail, HttpError, readAll, send, sendError, type Reply } from './http';
import { control } from './routes-control';
import { ordersRoutes, type RestRequest } from './routes-orders';
import { webhooksRoutes } from './routes-webhooks';
import { createShop, type Shop } from './shop';

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

/** The REST routes under /wp-json/wc/v3, by resource. */
async function rest(shop: Shop, method: string, url: URL, body: Record<string, unknown>, res: ServerResponse): Promise<Reply> {
  const [resource, ...path] = url.pathname
    .replace(/^\/wp-json\/wc\/v3\/?/, '')
    .split('/')
    .filter(Boolean);
  const r: RestRequest = { method, url, body, path, res };
  const reply = resource === 'orders' ? ordersRoutes(shop, r) : resource === 'webhooks' ? await webhooksRoutes(shop, r) : undefined;
  if (!reply) throw fail(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  return reply;
}

/** A JSON or form body; null for JSON that does not parse. */
function parseBody(raw: string, form: URLSearchParams | null): Record<string, unknown> | null {
  try {
    return form ? Object.fromEntries(form) : raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  } catch {
    return null;
  }
}

/** WooCommerce's authentication and the key's permission for the method; the error to answer, or undefined. */
function authorize(shop: Shop, req: IncomingMessage, method: string, url: URL, form: URLSearchParams | null, ssl: boolean): WcError | undefined {
  const auth = authenticate(
    { method, path: url.pathname, query: url.searchParams, form, authorization: req.headers.authorization, ssl, home: shop.home, now: shop.now() },
    shop.keys,
  );
  if ('error' in auth) return auth.error;
  if ('anonymous' in auth) {
    const what = method === 'GET' ? 'woocommerce_rest_cannot_view' : method === 'DELETE' ? 'woocommerce_rest_cannot_delete' : 'woocommerce_rest_cannot_create';
    return {
      status: 401,
      code: what,
      message: method === 'GET' ? 'Sorry, you cannot list resources.' : 'Sorry, you are not allowed to create resources.',
    };
  }
  return checkPermission(auth.key, method) ?? undefined;
}

async function handle(shop: Shop, ssl: boolean, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', shop.home);
  const raw = await readAll(req);
  const type = req.headers['content-type'] ?? '';
  const form = type.includes('application/x-www-form-urlencoded') ? new URLSearchParams(raw) : null;
  const body = parseBody(raw, form);
  if (!body) return send(res, 400, { code: 'rest_invalid_json', message: 'Invalid JSON body passed.', data: { status: 400 } });
  const method = (req.method ?? 'GET').toUpperCase();
  if (url.pathname.startsWith('/__control')) {
    const [status, out] = await control(shop, method, url, body);
    return send(res, status, out);
  }
  shop.counters.requests += 1;
  if (!shop.restEnabled) {
    // a security plugin switched the REST API off: an HTML page, not JSON (§5)
    res.writeHead(404, { 'content-type': 'text/html; charset=UTF-8' }).end('<!doctype html><title>Page not found</title><h1>Nothing here</h1>');
    return;
  }
  if (url.pathname === '/wp-json' || url.pathname === '/wp-json/') {
    return send(res, 200, {
      name: 'Kawowy Świat (emulator)',
      url: shop.home.replace(/\/$/, ''),
      home: shop.home.replace(/\/$/, ''),
      namespaces: ['oembed/1.0', 'wc/v1', 'wc/v2', 'wc/v3', 'wp/v2'],
    });
  }
  if (!url.pathname.startsWith('/wp-json/wc/v3/'))
    return send(res, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
  const denied = authorize(shop, req, method, url, form, ssl);
  if (denied) return sendError(res, denied);
  try {
    const [status, out] = await rest(shop, method, url, body, res);
    return send(res, status, out);
  } catch (err) {
    if (err instanceof HttpError) return sendError(res, err.wc);
    throw err;
  }
}

export async function startWooEmulator(options: WooEmulatorOptions = {}): Promise<WooEmulator> {
  const shop = createShop(options);
  const ssl = !!options.tls;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(shop, ssl, req, res).catch((err: unknown) => {
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
  shop.home = `${ssl ? 'https' : 'http'}://${host}:${port}/`;
  return {
    url: shop.home.replace(/\/$/, ''),
    home: shop.home,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const t of shop.pending.values()) clearTimeout(t);
        shop.pending.clear();
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
