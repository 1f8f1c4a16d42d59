import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { startWeb, type RunningProcess } from '@/test/web';

/**
 * Thousands of malformed requests, generated from a seeded PRNG so a failure replays, against every /v1 endpoint
 * through the real Next.js server (its proxy included): bad percent-escapes anywhere in the path, NUL and unpaired
 * surrogates in JSON strings, keys and query values, bytes that are not UTF-8, huge numbers, wrong types, broken
 * JSON. No answer may be a 5xx, every answer carries Request-Id and (unless 2xx) the error envelope, and no row
 * appears that a 2xx answer did not report.
 */
const t = useTestDatabase();
let web: RunningProcess;
/** The rate limit is 100 requests a minute per key: the requests are spread over enough keys. */
const keys: string[] = [];
let invoiceId = '';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2_000);

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
  console.log(`fuzz: ${REQUESTS} requests in ${((Date.now() - started) / 1000).toFixed(1)} s, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
  if (failures.length) console.log(web.output().slice(-4000));
  expect(failures.slice(0, 10)).toEqual([]);
  // rows only from answers that said they stored something
  const stored = await t.db().execute<{ id: string }>(sql`
    select id from documents where id <> ${invoiceId} union all select id from webhook_endpoints`);
  expect(stored.map((r) => r.id).filter((id) => !reported.has(id))).toEqual([]);
  const after = await rowCounts();
  console.log(`fuzz: rows before ${JSON.stringify(before)} after ${JSON.stringify(after)}, ${reported.size} objects reported by 2xx`);
}, 120_000);
