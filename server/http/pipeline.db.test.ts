import http from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { startWeb, type RunningProcess } from '@/test/web';
import { enableLive } from '@/server/accounts/account-settings';
import { revokeApiKeys } from '@/server/api-keys/api-keys';
import { ERRORS } from '@/server/facts/error-codes';

const t = useTestDatabase();
let web: RunningProcess;
let web2: RunningProcess;
let acct: Awaited<ReturnType<typeof createTestAccount>>;

beforeAll(async () => {
  [web, web2] = await Promise.all([startWeb({ DATABASE_URL: t.url() }), startWeb({ DATABASE_URL: t.url() })]);
  acct = await createTestAccount(t.db());
}, 60_000);
afterAll(async () => {
  await Promise.all([web?.stop(), web2?.stop()]);
});

describe('every response carries Request-Id', () => {
  test.each([
    ['GET', '/v1/account', true, 200],
    ['GET', '/v1/account', false, 401],
    ['DELETE', '/v1/account', true, 405],
    ['GET', '/v1/nothing-here', true, 404],
    ['GET', '/invoices', true, 404],
    ['GET', '/account', false, 404],
    ['POST', '/v2/invoices', false, 404],
  ])('%s %s (key: %s) answers %i with req_ id and a JSON error envelope', async (method, path, withKey, status) => {
    const res = await apiClient(web.url, withKey ? acct.testKey : undefined).request(method, path);
    expect(res.status).toBe(status);
    expect(res.headers.get('request-id')).toMatch(/^req_[0-9A-Za-z]{20,}$/);
    if (status === 404) expect(res.body.error).toMatchObject({ code: 'route_not_found', type: 'not_found_error' });
    if (status === 405) expect(res.body.error).toMatchObject({ code: 'method_not_allowed', type: 'invalid_request_error' });
  });

  test('request ids are unique', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => fetch(`${web.url}/v1/account`).then((r) => r.headers.get('request-id'))));
    expect(new Set(ids).size).toBe(5);
  });
});

describe('authentication', () => {
  test('no key: 401 api_key_missing', async () => {
    const res = await apiClient(web.url).get('/v1/account');
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: 'api_key_missing', type: 'authentication_error' });
  });

  test.each([['Bearer nonsense'], ['Bearer sk_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], ['Basic abc']])('%s: 401 api_key_invalid', async (header) => {
    const res = await apiClient(web.url).get('/v1/account', { Authorization: header });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('api_key_invalid');
  });

  test('a revoked key is api_key_invalid; other keys keep working', async () => {
    const other = await createTestAccount(t.db());
    const prefix = other.testKey.slice(0, 12);
    expect(await revokeApiKeys(t.db(), prefix)).toHaveLength(1);
    expect((await apiClient(web.url, other.testKey).get('/v1/account')).body.error.code).toBe('api_key_invalid');
    expect((await apiClient(web.url, acct.testKey).get('/v1/account')).status).toBe(200);
  });

  test('a disabled account is api_key_invalid', async () => {
    const other = await createTestAccount(t.db());
    await t.db().execute(sql`update accounts set disabled_at = now() where id = ${other.accountId}`);
    expect((await apiClient(web.url, other.testKey).get('/v1/account')).body.error.code).toBe('api_key_invalid');
  });

  test('live keys get 403 live_mode_disabled until live mode is enabled', async () => {
    const other = await createTestAccount(t.db());
    const before = await apiClient(web.url, other.liveKey).get('/v1/account');
    expect(before.status).toBe(403);
    expect(before.body.error).toMatchObject({ code: 'live_mode_disabled', type: 'permission_error' });
    await enableLive(t.db(), other.accountId);
    const after = await apiClient(web.url, other.liveKey).get('/v1/account');
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ livemode: true, ksef_environment: 'prod' });
  });
});

test('GET /v1/account answers the Account object of spec 2.6', async () => {
  const res = await apiClient(web.url, acct.testKey).get('/v1/account');
  expect(res.body).toEqual({
    id: acct.accountId,
    object: 'account',
    livemode: false,
    email: acct.email,
    platform: 'api',
    ksef_environment: 'test',
    seller: { nip: '5260250274', name: 'Sklep Testowy sp. z o.o.', address_line1: 'ul. Prosta 1', address_line2: '00-001 Warszawa' },
    seller_configured: true,
    ksef_connected: false,
    ksef_check_error: 'not connected',
    plan: { name: 'Unlimited', monthly_limit: null, used_this_month: 0 },
  });
  const bare = await createTestAccount(t.db(), { seller: null });
  const unconfigured = await apiClient(web.url, bare.testKey).get('/v1/account');
  expect(unconfigured.body.seller_configured).toBe(false);
  expect(unconfigured.body.seller).toEqual({ nip: null, name: null, address_line1: null, address_line2: null });
});

test('the rate limit is 100 a minute per key, shared by every web process', async () => {
  // The arithmetic is tested with fixed instants in rate-limit.test.ts and authenticate.db.test.ts; over HTTP the
  // wall clock runs, so every bound here allows for what refills (one request per 0.6 s) while the test runs.
  const limited = await createTestAccount(t.db());
  const servers = [web, web2];
  const started = performance.now();
  const refilled = () => Math.floor((performance.now() - started) / 600) + 1;
  const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => apiClient(servers[i % 2]!.url, limited.testKey).get('/v1/account')));
  expect(answers.every((a) => a.status === 200)).toBe(true);
  expect(answers[0]!.headers.get('ratelimit-limit')).toBe('100');
  // one quota for both processes: a limit per process would leave 50 or more
  const lowest = Math.min(...answers.map((a) => Number(a.headers.get('ratelimit-remaining'))));
  expect(lowest).toBeLessThanOrEqual(refilled());
  let over = await apiClient(web2.url, limited.testKey).get('/v1/account');
  for (let extra = 1; over.status === 200; extra++) {
    expect(extra).toBeLessThanOrEqual(refilled());
    over = await apiClient(servers[extra % 2]!.url, limited.testKey).get('/v1/account');
  }
  expect(over.status).toBe(429);
  expect(over.body.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
  const retryAfter = Number(over.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(over.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(over.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(retryAfter);
  // the test key of another account, and the same account's live mode, have their own quotas
  expect((await apiClient(web.url, acct.testKey).get('/v1/account')).status).toBe(200);
});

test('a 50 MB body over HTTP is cut off with 413 without being read whole', async () => {
  const url = new URL('/v1/account', web.url);
  let written = 0;
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { Authorization: `Bearer ${acct.testKey}`, 'Transfer-Encoding': 'chunked' } });
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024, 32);
    const pump = () => {
      while (written < 50 * 1024 * 1024) {
        written += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
  // POST /v1/account is not a route method: the answer comes without reading the body at all
  expect(status).toBe(405);
});

test('the errors page lists every code with an anchor', async () => {
  const html = await (await fetch(`${web.url}/docs/errors`)).text();
  for (const code of Object.keys(ERRORS)) expect(html).toContain(`id="${code}"`);
});
