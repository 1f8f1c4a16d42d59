import { createHash, createHmac } from 'node:crypto';
import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { storeConnections, storeWebhooks } from '@/server/db/schema';
import { newId } from '@/server/ids';
import { sealWebhookSecret } from '@/server/webhooks/webhook-secret';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { startWeb, type RunningProcess } from '@/test/web';

/**
 * Thousands of malformed requests, generated from a seeded PRNG so a failure replays, against every /v1 endpoint
 * through the real Next.js server (its proxy included): bad percent-escapes anywhere in the path, NUL and unpaired
 * surrogates in JSON strings, keys and query values, bytes that are not UTF-8, huge numbers, wrong types, broken
 * JSON. No answer may be a 5xx, every answer carries Request-Id and (unless 2xx) the error envelope, and no row
 * appears that a 2xx answer did not report. The same for the store hook's signed and unsigned deliveries, and for
 * every other door: pages, redirects, OPTIONS, `..` and `%2e%2e`, and raw bytes in the request line.
 */
const t = useTestDatabase();
let web: RunningProcess;
/** The rate limit is 100 requests a minute per key: the requests are spread over enough keys. */
const keys: string[] = [];
let invoiceId = '';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2_000);
const DOOR_REQUESTS = Number(process.env.FUZZ_DOOR_REQUESTS ?? 1_500);
const HOOK_SECRET = 'Fuzz-secret_0123456789';
const HOOK_ID = 77;
let storeId = '';

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const BAD_ESCAPES = ['%ff', '%', '%zz', '%e2%82', '%c3%28', '%00', '%ed%a0%80', '%f8%88%80%80%80', '%8'];
const BAD_STRINGS = ['a\u0000b', '\u0000', '\ud800', 'x\udfffy', '\udc00\ud800', 'ok\u0000'];
const BAD_VALUES: unknown[] = [1e308, -1e308, 12345678901234567890123, 0.1, -1, null, true, [], {}, [1, 2], { a: 1 }, '', 'x'.repeat(5000), 9007199254740993];
const RAW_BODIES: (string | Buffer)[] = [
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0x7b, 0x22, 0x6f, 0x72, 0x64, 0x65, 0x72, 0x22, 0x3a, 0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d, 0x7d]),
  Buffer.from([0xed, 0xa0, 0x80]),
  '{"order":',
  '{"order":1e999}',
  '[',
  'null',
  '"\\u0000"',
  '{"a":"\\ud800"}',
  '{"\\u0000":1}',
  `{"order":${'['.repeat(2000)}${']'.repeat(2000)}}`,
  '{"order":{"external_id":"x","paid_at":"2026-01-01T00:00:00Z","lines":NaN}}',
];

/** Answers counted by status class, and the 5xx among them. */
function totals(statuses: Map<number, number>): string {
  const classes: Record<string, number> = {};
  for (const [status, n] of statuses) classes[`${Math.floor(status / 100)}xx`] = (classes[`${Math.floor(status / 100)}xx`] ?? 0) + n;
  return `by class ${JSON.stringify(classes)}, 5xx: ${classes['5xx'] ?? 0}`;
}

type Endpoint = { method: string; path: () => string; body?: () => unknown; query?: string[] };
const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: () => '/v1/invoices', body: () => ({ order: paidOrder() }) },
  { method: 'GET', path: () => '/v1/invoices', query: ['limit', 'starting_after', 'external_id'] },
  { method: 'GET', path: () => `/v1/invoices/${invoiceId}` },
  { method: 'GET', path: () => `/v1/invoices/${invoiceId}/pdf` },
  { method: 'GET', path: () => `/v1/invoices/${invoiceId}/xml` },
  { method: 'GET', path: () => `/v1/invoices/${invoiceId}/upo` },
  {
    method: 'POST',
    path: () => `/v1/invoices/${invoiceId}/corrections`,
    body: () => ({ refund: { external_id: 'r-1', reason: 'zwrot', lines: [{ name: 'Kubek ceramiczny', quantity: 1, unit_price: '49.99', vat_rate: '23' }] } }),
  },
  { method: 'GET', path: () => '/v1/webhook_endpoints', query: ['limit', 'starting_after'] },
  { method: 'POST', path: () => '/v1/webhook_endpoints', body: () => ({ url: 'https://hooks.example.com/ksef', enabled_events: ['*'], description: 'x' }) },
  { method: 'GET', path: () => '/v1/webhook_endpoints/we_0000000000000000000000' },
  { method: 'DELETE', path: () => '/v1/webhook_endpoints/we_0000000000000000000000' },
  { method: 'GET', path: () => '/v1/account' },
  { method: 'GET', path: () => '/v1/events', query: ['limit', 'starting_after', 'type'] },
];

/** Replaces one randomly chosen string, key or leaf of a JSON value with something hostile. */
function mutate(value: unknown, rnd: () => number): unknown {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  if (value === null || typeof value !== 'object' || rnd() < 0.15) {
    return rnd() < 0.5 ? pick(BAD_STRINGS) : pick(BAD_VALUES);
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [pick(BAD_STRINGS)];
    const i = Math.floor(rnd() * value.length);
    return value.map((v, j) => (j === i ? mutate(v, rnd) : v));
  }
  const entries = Object.entries(value);
  const i = Math.floor(rnd() * entries.length);
  if (rnd() < 0.1) return Object.fromEntries([...entries, [pick(BAD_STRINGS), 'x']]);
  return Object.fromEntries(entries.map(([k, v], j) => [k, j === i ? mutate(v, rnd) : v]));
}

function request(rnd: () => number): { method: string; path: string; body?: string | Buffer } {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const ep = pick(ENDPOINTS);
  let path = ep.path();
  let body: string | Buffer | undefined;
  const kind = rnd();
  if (kind < 0.25) {
    // a bad escape spliced into a random place of the path
    const at = 1 + Math.floor(rnd() * (path.length - 1));
    path = `${path.slice(0, at)}${pick(BAD_ESCAPES)}${path.slice(at)}`;
  } else if (kind < 0.45) {
    const name = ep.query ? pick(ep.query) : 'q';
    const value = pick([...BAD_ESCAPES, '%00', 'a%00b', '1e309', '-1', '99999999999999999999', '1.5', '%ed%a0%80', 'inv_%00']);
    path += rnd() < 0.2 ? `?${pick(BAD_ESCAPES)}=1` : `?${name}=${value}`;
  }
  if (ep.method === 'POST') {
    const r = rnd();
    if (r < 0.2) body = pick(RAW_BODIES);
    else if (r < 0.25) body = JSON.stringify(ep.body!());
    else body = JSON.stringify(mutate(ep.body!(), rnd));
  }
  return { method: ep.method, path, body };
}

async function rowCounts() {
  const [row] = await t.db().execute<Record<string, number>>(sql`select
    (select count(*)::int from documents) as documents,
    (select count(*)::int from webhook_endpoints) as endpoints,
    (select count(*)::int from events) as events,
    (select count(*)::int from idempotency_keys) as idempotency`);
  return row!;
}

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
  for (let i = 0; i < 40; i++) keys.push((await createTestAccount(t.db())).testKey);
  const res = await fetch(`${web.url}/v1/invoices`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${keys[0]}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ order: paidOrder() }),
  });
  invoiceId = ((await res.json()) as { id: string }).id;
  storeId = newId('st');
  const acct = await createTestAccount(t.db());
  await t
    .db()
    .insert(storeConnections)
    .values({ id: storeId, accountId: acct.accountId, mode: 'test', url: 'https://sklep.example.pl/', credentials: 'sealed', status: 'connected' });
  await t
    .db()
    .insert(storeWebhooks)
    .values({ storeId, remoteId: HOOK_ID, topic: 'order.updated', secret: sealWebhookSecret(HOOK_SECRET) });
}, 120_000);
afterAll(() => web?.stop());

test(`${REQUESTS} generated malformed requests: no 5xx, every answer with Request-Id and envelope, no row a 2xx did not report`, async () => {
  const rnd = prng(18);
  const before = await rowCounts();
  const reported = new Set<string>();
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const one = async () => {
    for (let n = next++; n < REQUESTS; n = next++) {
      const req = request(rnd);
      const res = await fetch(`${web.url}${req.path}`, {
        method: req.method,
        headers: { Authorization: `Bearer ${keys[n % keys.length]}`, ...(req.body !== undefined && { 'Content-Type': 'application/json' }) },
        body: req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : new Uint8Array(req.body),
      });
      const text = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const describe = `${req.method} ${req.path} ${String(req.body).slice(0, 200)} → ${res.status} ${text.slice(0, 300)}`;
      if (res.status >= 500) failures.push(describe);
      if (!/^req_[0-9A-Za-z]{20,}$/.test(res.headers.get('request-id') ?? '')) failures.push(`no Request-Id: ${describe}`);
      if (res.status >= 400) {
        let error: { code?: string; type?: string; doc_url?: string } | undefined;
        try {
          error = (JSON.parse(text) as { error?: typeof error }).error;
        } catch {
          error = undefined;
        }
        if (!error?.code || !error.type || !error.doc_url) failures.push(`no envelope: ${describe}`);
      } else if (res.status < 300 && req.method === 'POST' && (res.headers.get('content-type') ?? '').includes('json')) {
        const id = (JSON.parse(text) as { id?: string }).id;
        if (id) reported.add(id);
      }
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: 8 }, one));
  console.log(
    `fuzz: ${REQUESTS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${totals(statuses)}, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  if (failures.length) console.log(web.output().slice(-4000));
  expect(failures.slice(0, 10)).toEqual([]);
  // rows only from answers that said they stored something
  const stored = await t.db().execute<{ id: string }>(sql`
    select id from documents where id <> ${invoiceId} union all select id from webhook_endpoints`);
  expect(stored.map((r) => r.id).filter((id) => !reported.has(id))).toEqual([]);
  const after = await rowCounts();
  console.log(`fuzz: rows before ${JSON.stringify(before)} after ${JSON.stringify(after)}, ${reported.size} objects reported by 2xx`);
}, 120_000);

/** A WooCommerce order as a delivery carries it (the fields the intake reads, and some it does not). */
const wooOrder = () => ({
  id: 4817,
  number: '4817',
  status: 'processing',
  currency: 'PLN',
  date_paid_gmt: '2026-06-01T19:48:00',
  billing: { company: 'Kawowy Świat sp. z o.o.', first_name: 'Anna', last_name: 'Nowak', country: 'PL' },
  meta_data: [{ id: 1, key: '_billing_nip', value: '386-161-02-27' }],
  line_items: [{ id: 1001, name: 'Ekspres', quantity: 1, total: '1056.10', total_tax: '242.90', taxes: [{ id: 1, total: '242.9' }] }],
  customer_note: 'Proszę o fakturę',
});

type DoorRequest = { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer; hook?: boolean; raw?: Buffer };

/** A delivery to the store hook: signed or not, of any topic, its body a mutated order, raw bytes or a ping. */
function hookRequest(rnd: () => number): DoorRequest {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const r = rnd();
  const body: string | Buffer =
    r < 0.5 ? JSON.stringify(mutate(wooOrder(), rnd)) : r < 0.7 ? pick(RAW_BODIES) : r < 0.8 ? JSON.stringify(wooOrder()) : `webhook_id=${HOOK_ID}`;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (rnd() < 0.9)
    headers['X-WC-Webhook-Topic'] = pick(['order.updated', 'order.created', 'order.deleted', 'product.updated', 'order.restored', 'ORDER.UPDATED']);
  if (rnd() < 0.9) headers['X-WC-Webhook-ID'] = pick([String(HOOK_ID), String(HOOK_ID), '0', '-1', '1e3', 'x', '99999999999999999999']);
  const signature = createHmac('sha256', HOOK_SECRET).update(bytes).digest('base64');
  if (rnd() < 0.85) headers['X-WC-Webhook-Signature'] = rnd() < 0.9 ? signature : `${signature.slice(1)}A`;
  let path = `/hooks/woocommerce/${storeId}`;
  if (rnd() < 0.15) {
    const at = 1 + Math.floor(rnd() * (path.length - 1));
    path = `${path.slice(0, at)}${pick(BAD_ESCAPES)}${path.slice(at)}`;
  }
  const method = rnd() < 0.95 ? 'POST' : pick(['GET', 'PUT', 'DELETE', 'OPTIONS']);
  return { method, path, headers, body: method === 'GET' ? undefined : body, hook: true };
}

const DOOR_PATHS = [
  '/',
  '/dashboard',
  '/dashboard/',
  '/dashboard/store',
  '/docs/errors',
  '/docs/errors/',
  '/signin',
  '/d/abc',
  '/healthz',
  '/openapi.json',
  '/nothing/here',
  '//v1/invoices',
  '/v1/invoices/',
  '/v1//invoices',
  '/v1/./account',
  '/v1/../v1/account',
  '/v1/%2e%2e/v1/account',
  '/v1/invoices/%2e%2e',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/v1/invoices/%2E%2E%2F%2E%2E',
  '/v1/%2fv1%2faccount',
  '/v1/account%3f',
  '/api/trpc/stores.status',
  '/api/auth/session',
  '/_next/static/x.js',
];
/** Bytes Node's parser refuses in a request line: they never reach Next.js. */
const RAW_PATH_BYTES = [[0xff], [0xc3, 0xa9], [0x01], [0x7f], [0x00], [0x1b, 0x5b]];

/** A request to any door but a /v1 endpoint's body: pages, redirects, OPTIONS, dot segments, raw bytes in the path. */
function doorRequest(rnd: () => number): DoorRequest {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  if (rnd() < 0.3) return hookRequest(rnd);
  let path = pick([...DOOR_PATHS, ...ENDPOINTS.map((e) => e.path())]);
  if (rnd() < 0.1) {
    const at = 1 + Math.floor(rnd() * (path.length - 1));
    const raw = Buffer.concat([
      Buffer.from(`GET ${path.slice(0, at)}`),
      Buffer.from(pick(RAW_PATH_BYTES)),
      Buffer.from(`${path.slice(at)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
    ]);
    return { method: 'GET', path, raw };
  }
  if (rnd() < 0.2) {
    const at = 1 + Math.floor(rnd() * (path.length - 1));
    path = `${path.slice(0, at)}${pick(BAD_ESCAPES)}${path.slice(at)}`;
  }
  const method = pick(['GET', 'GET', 'HEAD', 'OPTIONS', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);
  // fetch resolves `.`, `..` and `%2e` segments itself: those go out as written over a socket
  if (/\/\.|%2e/i.test(path))
    return { method, path, raw: Buffer.from(`${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`) };
  return { method, path, body: method === 'POST' || method === 'PUT' ? pick(RAW_BODIES) : undefined };
}

/** A chunked body's data (HTTP/1.1 chunked transfer coding). */
function unchunk(body: string): string {
  let out = '';
  for (let at = 0; ;) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.slice(at, eol), 16);
    if (!(size > 0)) return out;
    out += body.slice(eol + 2, eol + 2 + size);
    at = eol + 2 + size + 2;
  }
}

/** An HTTP/1.1 exchange over a socket, for request lines fetch would not send. */
function rawExchange(port: number, request: Buffer): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.setTimeout(15_000, () => socket.destroy(new Error(`no answer to ${JSON.stringify(request.toString('latin1').split('\r\n')[0])}`)));
    socket.on('end', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const [head = '', ...rest] = all.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Headers();
      for (const l of lines) headers.append(l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim());
      const body = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, text: headers.get('transfer-encoding') === 'chunked' ? unchunk(body) : body });
    });
  });
}

test(`${DOOR_REQUESTS} generated requests to the store hook and every other door: no 5xx, Request-Id on every answer, an error shape on every 4xx`, async () => {
  const rnd = prng(31);
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  /** Hashes of the order deliveries the hook accepted (200): the only ones that may be stored. */
  const accepted = new Set<string>();
  let next = 0;
  const one = async () => {
    for (let n = next++; n < DOOR_REQUESTS; n = next++) {
      const req = doorRequest(rnd);
      const res = req.raw
        ? await rawExchange(web.port, req.raw)
        : await fetch(`${web.url}${req.path}`, {
            method: req.method,
            headers: req.headers,
            redirect: 'manual',
            body: req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : new Uint8Array(req.body),
          }).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() }));
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      const shown = req.raw ? JSON.stringify(req.raw.toString('latin1').split('\r\n')[0]) : `${req.method} ${req.path}`;
      const describe = `${shown} ${String(req.body ?? '').slice(0, 120)} → ${res.status} ${res.text.slice(0, 200)}`;
      if (res.status >= 500) failures.push(describe);
      if (!/^req_[0-9A-Za-z]{20,}$/.test(res.headers.get('request-id') ?? '')) failures.push(`no Request-Id: ${describe}`);
      const topic = req.headers?.['X-WC-Webhook-Topic'];
      if (req.hook && res.status === 200 && topic?.startsWith('order.') && topic !== 'order.deleted' && req.body !== `webhook_id=${HOOK_ID}`) {
        const bytes = typeof req.body === 'string' ? Buffer.from(req.body) : req.body!;
        accepted.add(createHash('sha256').update(`${topic}\n${HOOK_ID}\n`).update(bytes).digest('hex'));
      }
      if (res.status < 400 || req.method === 'HEAD' || req.path.startsWith('/api/')) continue;
      let error: unknown;
      try {
        error = (JSON.parse(res.text) as { error?: unknown }).error;
      } catch {
        error = undefined;
      }
      // the hook answers WooCommerce in its own shape, {error: code, message}; every other door with the envelope
      // the hook route serves every /hooks/woocommerce/{store} path, a percent-escaped store id included
      const hookShape = req.path.startsWith('/hooks/woocommerce/') && typeof error === 'string';
      const envelope = typeof error === 'object' && error !== null && ['code', 'type', 'doc_url'].every((k) => k in error);
      if (!hookShape && !envelope) failures.push(`no error shape: ${describe}`);
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: 8 }, one));
  console.log(
    `fuzz doors: ${DOOR_REQUESTS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, ${totals(statuses)}, statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  if (failures.length) console.log(web.output().slice(-4000));
  expect(failures.slice(0, 10)).toEqual([]);
  const stored = await t.db().execute<{ hash: string }>(sql`select hash from store_deliveries where store_id = ${storeId}`);
  expect(stored.map((r) => r.hash).filter((h) => !accepted.has(h))).toEqual([]);
  console.log(`fuzz doors: ${stored.length} deliveries stored, all of them answered 200`);
}, 180_000);
