import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { config } from '@/server/config';
import { AppError } from '@/server/errors';
import { StoreRequestError } from '../platform';
import { signOAuth } from './oauth';

export type WooCredentials = { consumerKey: string; consumerSecret: string };
export type WooResponse<T> = { status: number; headers: Record<string, string | string[] | undefined>; data: T };
export type WooWebhook = { id: number; name: string; status: string; topic: string; delivery_url: string; secret?: string };
export type WooNote = { id: number; note: string; customer_note: boolean };

type RequestOptions = { query?: Record<string, string | number | boolean>; body?: unknown };
type RawResponse = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

let extraCa: { file: string; pem: string } | undefined;
/** STORE_TLS_CA_FILE, read once: tests trust the emulator's self-signed certificate this way, nothing else does. */
function trustedCa(): string | undefined {
  const file = config().STORE_TLS_CA_FILE;
  if (!file) return undefined;
  if (extraCa?.file !== file) extraCa = { file, pem: readFileSync(file, 'utf8') };
  return extraCa.pem;
}

/** node:http(s) rather than fetch, so that a test-only CA can be trusted per request; redirects are not followed. */
function send(url: URL, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const ca = url.protocol === 'https:' ? trustedCa() : undefined;
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers, timeout: timeoutMs, ...(ca ? { ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' })));
    req.on('error', reject);
    req.end(body);
  });
}

/** An answer's JSON (null for an empty body); one that is not JSON means WooCommerce's REST API did not answer. */
function answerJson(res: RawResponse, method: string, url: URL): unknown {
  try {
    return res.text ? JSON.parse(res.text) : null;
  } catch {
    throw new AppError(
      'store_rest_disabled',
      'url',
      `${method} ${url.pathname} answered ${res.status} with ${String(res.headers['content-type'] ?? 'no content type')}, not JSON: the REST API is switched off, blocked, or permalinks are plain.`,
    );
  }
}

/** The error an answer outside 2xx stands for: AppErrors for what concerns the connection, else a StoreRequestError. */
function refusal(res: RawResponse, data: unknown, method: string, url: URL): Error {
  const err = (data ?? {}) as { code?: string; message?: string };
  const code = err.code ?? '';
  const message = err.message ?? `HTTP ${res.status}`;
  if (res.status === 401 && /write permissions/i.test(message)) return new AppError('store_keys_read_only', 'consumer_key', `WooCommerce: ${message}`);
  if (res.status === 401) return new AppError('store_keys_invalid', 'consumer_key', `WooCommerce: ${message} (${code})`);
  if (res.status === 403) return new AppError('store_permission_denied', 'consumer_key', `WooCommerce: ${message} (${code})`);
  if (code === 'rest_no_route') return new AppError('store_rest_disabled', 'url', `WooCommerce has no route ${url.pathname}: is WooCommerce active?`);
  if (res.status >= 300 && res.status < 400)
    return new AppError(
      'store_rest_disabled',
      'url',
      `${url.pathname} redirects to ${String(res.headers.location ?? '?')} (a login page or a security plugin).`,
    );
  return new StoreRequestError(res.status, code, `WooCommerce ${method} ${url.pathname}: ${res.status} ${code} ${message}`);
}

/**
 * WooCommerce REST v3 client. Over HTTPS it sends the key as HTTP Basic; over plain HTTP WooCommerce ignores Basic
 * and query keys, so it signs each request with OAuth 1.0a one-legged HMAC-SHA256 in the Authorization header
 * (woocommerce-rules.md §3). Secrets never go into URLs (WooCommerce echoes query strings into Link headers).
 * Failures that concern the connection become AppErrors naming what is wrong; other error answers StoreRequestErrors.
 */
export function wooClient(home: string, credentials: WooCredentials, options: { timeoutMs?: number; now?: () => Date } = {}) {
  const base = home.endsWith('/') ? home : `${home}/`;
  const https = base.startsWith('https:');
  const timeoutMs = options.timeoutMs ?? config().STORE_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());

  function authorization(method: string, url: URL): string {
    if (https) return `Basic ${Buffer.from(`${credentials.consumerKey}:${credentials.consumerSecret}`).toString('base64')}`;
    const signed = signOAuth({
      method,
      url: `${url.origin}${url.pathname}`,
      query: [...url.searchParams],
      consumerKey: credentials.consumerKey,
      consumerSecret: credentials.consumerSecret,
      timestamp: Math.floor(now().getTime() / 1000),
    });
    return `OAuth ${Object.entries(signed)
      .map(([k, v]) => `${k}="${encodeURIComponent(v)}"`)
      .join(', ')}`;
  }

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<WooResponse<T>> {
    const url = new URL(path.replace(/^\//, ''), base);
    for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { Accept: 'application/json', Authorization: authorization(method, url) };
    const body = o.body === undefined ? undefined : JSON.stringify(o.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: RawResponse;
    try {
      res = await send(url, method, headers, body, timeoutMs);
    } catch (err) {
      const why = (err as { code?: string }).code ?? (err instanceof Error ? err.message : String(err));
      throw new AppError('store_unreachable', 'url', `The store at ${base} did not answer (${why}).`);
    }
    const data = answerJson(res, method, url);
    if (res.status >= 200 && res.status < 300) return { status: res.status, headers: res.headers, data: data as T };
    throw refusal(res, data, method, url);
  }

  return {
    home: base,
    /** GET /wp-json/: JSON naming the wc/v3 namespace when the REST API works (woocommerce-rules.md §5). */
    async probe(): Promise<void> {
      const { data } = await request<{ namespaces?: string[] }>('GET', 'wp-json/');
      if (!data?.namespaces?.includes('wc/v3'))
        throw new AppError('store_rest_disabled', 'url', "The site answers, but WooCommerce's REST API (wc/v3) is not among its namespaces.");
    },
    order: async (id: number) => (await request<Record<string, unknown>>('GET', `wp-json/wc/v3/orders/${id}`)).data,
    /** One page of orders modified after `since` (UTC), ascending by id; `totalPages` from X-WP-TotalPages. */
    async ordersModifiedAfter(since: Date, page: number) {
      const res = await request<Record<string, unknown>[]>('GET', 'wp-json/wc/v3/orders', {
        query: { modified_after: since.toISOString().slice(0, 19), dates_are_gmt: 'true', orderby: 'id', order: 'asc', per_page: 100, page },
      });
      return { orders: res.data, totalPages: Number(res.headers['x-wp-totalpages'] ?? '1') };
    },
    refund: async (orderId: number, refundId: number) =>
      (await request<Record<string, unknown>>('GET', `wp-json/wc/v3/orders/${orderId}/refunds/${refundId}`)).data,
    addNote: async (orderId: number, note: string, customerNote: boolean) =>
      (await request<WooNote>('POST', `wp-json/wc/v3/orders/${orderId}/notes`, { body: { note, customer_note: customerNote } })).data,
    /** PUT meta_data: WooCommerce merges by key, other meta stays (woocommerce-rules.md §4.4). */
    setMeta: async (orderId: number, meta: Record<string, string>) =>
      (
        await request<Record<string, unknown>>('PUT', `wp-json/wc/v3/orders/${orderId}`, {
          body: { meta_data: Object.entries(meta).map(([key, value]) => ({ key, value })) },
        })
      ).data,
    webhooks: async () => (await request<WooWebhook[]>('GET', 'wp-json/wc/v3/webhooks', { query: { per_page: 100 } })).data,
    createWebhook: async (w: { name: string; topic: string; delivery_url: string; secret: string }) =>
      (await request<WooWebhook>('POST', 'wp-json/wc/v3/webhooks', { body: w })).data,
    /** Webhooks cannot be trashed: DELETE needs force=true (501 otherwise). */
    deleteWebhook: async (id: number) => (await request<WooWebhook>('DELETE', `wp-json/wc/v3/webhooks/${id}`, { query: { force: 'true' } })).data,
  };
}

export type WooClient = ReturnType<typeof wooClient>;
