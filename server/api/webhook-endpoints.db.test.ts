import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { startWeb, type RunningProcess } from '@/test/web';
import { enableLive } from '@/server/accounts/account-settings';
import { unsealWebhookSecret } from '@/server/webhooks/webhook-secret';

const t = useTestDatabase();
let web: RunningProcess;

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
}, 60_000);
afterAll(() => web?.stop());

/** A fresh account per test keeps the 100 requests per minute and the 16 endpoints per mode apart. */
async function newAccount() {
  const acct = await createTestAccount(t.db());
  await enableLive(t.db(), acct.accountId);
  return { test: apiClient(web.url, acct.testKey), live: apiClient(web.url, acct.liveKey) };
}

const hook = (overrides: Record<string, unknown> = {}) => ({ url: 'http://127.0.0.1:9/hook', enabled_events: ['invoice.accepted'], ...overrides });

describe('POST /v1/webhook_endpoints', () => {
  test('answers 201 with the endpoint of spec 2.7 and its secret, which is stored sealed', async () => {
    const { test: api } = await newAccount();
    const res = await api.post('/v1/webhook_endpoints', hook({ enabled_events: ['invoice.accepted', 'correction.rejected'], description: 'Sklep główny' }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['id', 'object', 'livemode', 'url', 'enabled_events', 'description', 'status', 'created', 'secret'].sort());
    expect(res.body).toMatchObject({
      object: 'webhook_endpoint',
      livemode: false,
      url: 'http://127.0.0.1:9/hook',
      enabled_events: ['invoice.accepted', 'correction.rejected'],
      description: 'Sklep główny',
      status: 'enabled',
    });
    expect(res.body.id).toMatch(/^we_[0-9A-Za-z]{22}$/);
    expect(Math.abs(res.body.created - Date.now() / 1000)).toBeLessThan(60);
    // base62: 5.95 bits a character, so 33 or more characters carry at least 192 bits.
    expect(res.body.secret).toMatch(/^whsec_[0-9A-Za-z]{33,}$/);
    const [row] = await t.db().execute<{ secret: string }>(sql`select secret from webhook_endpoints where id = ${res.body.id}`);
    expect(row!.secret).not.toContain(res.body.secret.slice(6));
    expect(unsealWebhookSecret(row!.secret)).toBe(res.body.secret);
    const other = await api.post('/v1/webhook_endpoints', hook());
    expect(other.body.secret).not.toBe(res.body.secret);
  });

  test.each([
    ['no url', { enabled_events: ['*'] }, 'parameter_missing', 'url'],
    ['a url that is no URL', hook({ url: 'not a url' }), 'parameter_invalid', 'url'],
    ['an ftp url', hook({ url: 'ftp://example.com/x' }), 'parameter_invalid', 'url'],
    ['no enabled_events', { url: 'http://127.0.0.1:9/' }, 'parameter_missing', 'enabled_events'],
    ['empty enabled_events', hook({ enabled_events: [] }), 'parameter_invalid', 'enabled_events'],
    ['an unknown event type', hook({ enabled_events: ['*', 'invoice.paid'] }), 'parameter_invalid', 'enabled_events[1]'],
    ['a description over 500 characters', hook({ description: 'x'.repeat(501) }), 'parameter_invalid', 'description'],
  ])('refuses %s with 400 %s', async (_name, body, code, param) => {
    const { test: api } = await newAccount();
    const res = await api.post('/v1/webhook_endpoints', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, param });
  });

  test('takes a description of exactly 500 characters, and `*`', async () => {
    const { test: api } = await newAccount();
    const res = await api.post('/v1/webhook_endpoints', hook({ description: 'ż'.repeat(500), enabled_events: ['*'] }));
    expect(res.status).toBe(201);
    expect(res.body.enabled_events).toEqual(['*']);
  });

  test.each([
    ['http', 'http://93.184.216.34/hook', 'parameter_invalid', /https/],
    ['a loopback address', 'https://127.0.0.1/hook', 'url_not_public', /127\.0\.0\.1/],
    ['a private address', 'https://10.1.2.3/hook', 'url_not_public', /10\.1\.2\.3/],
    ['a link-local address', 'https://169.254.169.254/latest', 'url_not_public', /169\.254\.169\.254/],
    ['an IPv6 loopback', 'https://[::1]:8443/hook', 'url_not_public', /::1/],
    ['a name resolving to loopback', 'https://localhost/hook', 'url_not_public', /localhost resolves to .*live mode reaches public addresses only/],
  ])('live mode refuses %s', async (_name, url, code, message) => {
    const { live } = await newAccount();
    const res = await live.post('/v1/webhook_endpoints', hook({ url }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code, param: 'url' });
    expect(res.body.error.message).toMatch(message);
  });

  test('live mode takes https to a public address; test mode also takes http to this machine', async () => {
    const { test: api, live } = await newAccount();
    const created = await live.post('/v1/webhook_endpoints', hook({ url: 'https://93.184.216.34/hook' }));
    expect(created.status).toBe(201);
    expect(created.body.livemode).toBe(true);
    expect((await api.post('/v1/webhook_endpoints', hook({ url: 'http://localhost:3000/hook' }))).status).toBe(201);
  });

  test('at most 16 enabled endpoints per mode: the 17th is 400 webhook_endpoint_limit; a deleted one frees a place', async () => {
    const { test: api, live } = await newAccount();
    const made = await Promise.all(Array.from({ length: 20 }, (_, i) => api.post('/v1/webhook_endpoints', hook({ description: `n${i}` }))));
    expect(made.filter((r) => r.status === 201)).toHaveLength(16);
    const refused = made.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code, r.body.error.type])).toEqual(
      Array(4).fill([400, 'webhook_endpoint_limit', 'invalid_request_error']),
    );
    expect(refused[0]!.body.error.doc_url).toMatch(/#webhook_endpoint_limit$/);
    expect((await live.post('/v1/webhook_endpoints', hook({ url: 'https://93.184.216.34/hook' }))).status).toBe(201); // the other mode counts apart
    const victim = made.find((r) => r.status === 201)!.body.id;
    expect((await api.delete(`/v1/webhook_endpoints/${victim}`)).status).toBe(200);
    expect((await api.post('/v1/webhook_endpoints', hook())).status).toBe(201);
    expect((await api.post('/v1/webhook_endpoints', hook())).body.error.code).toBe('webhook_endpoint_limit');
  });

  test('Idempotency-Key: a retry replays the first answer and creates nothing; another body under the key is 409', async () => {
    const { test: api } = await newAccount();
    const headers = { 'Idempotency-Key': `we-${Date.now()}` };
    const first = await api.post('/v1/webhook_endpoints', hook(), headers);
    const again = await api.post('/v1/webhook_endpoints', hook(), headers);
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await api.get('/v1/webhook_endpoints')).body.data).toHaveLength(1);
    const other = await api.post('/v1/webhook_endpoints', hook({ description: 'other' }), headers);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });
});

describe('GET and DELETE /v1/webhook_endpoints', () => {
  test('retrieve and list never show the secret; the list holds enabled endpoints of the mode, newest first, paged', async () => {
    const { test: api, live } = await newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await api.post('/v1/webhook_endpoints', hook({ description: `e${i}` }))).body.id);
    await live.post('/v1/webhook_endpoints', hook({ url: 'https://93.184.216.34/hook' }));
    const one = await api.get(`/v1/webhook_endpoints/${ids[0]}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(one.body).toMatchObject({ id: ids[0], description: 'e0', status: 'enabled' });

    const page1 = await api.get('/v1/webhook_endpoints?limit=2');
    expect(page1.body).toMatchObject({ object: 'list', url: '/v1/webhook_endpoints', has_more: true });
    expect(page1.body.data.map((e: { id: string }) => e.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.data.every((e: object) => !('secret' in e))).toBe(true);
    const page2 = await api.get(`/v1/webhook_endpoints?limit=2&starting_after=${ids[1]}`);
    expect(page2.body).toMatchObject({ has_more: false, data: [{ id: ids[0] }] });
  });

  test('DELETE disables and answers the delete result; the endpoint leaves the list but stays retrievable', async () => {
    const { test: api } = await newAccount();
    const id = (await api.post('/v1/webhook_endpoints', hook())).body.id;
    const del = await api.delete(`/v1/webhook_endpoints/${id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
    expect((await api.get(`/v1/webhook_endpoints/${id}`)).body.status).toBe('disabled');
    expect((await api.get('/v1/webhook_endpoints')).body.data).toEqual([]);
    expect((await api.delete(`/v1/webhook_endpoints/${id}`)).body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
  });

  test("another account's or mode's endpoint is 404 resource_missing; a malformed id is 400", async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const id = (await mine.test.post('/v1/webhook_endpoints', hook())).body.id;
    for (const [api, method] of [
      [theirs.test, 'GET'],
      [theirs.test, 'DELETE'],
      [mine.live, 'GET'],
      [mine.live, 'DELETE'],
    ] as const) {
      const res = await api.request(method, `/v1/webhook_endpoints/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'id' });
    }
    expect((await mine.test.get(`/v1/webhook_endpoints/${id}`)).body.status).toBe('enabled');
    const bad = await mine.test.get('/v1/webhook_endpoints/inv_123');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'id' });
    expect((await mine.test.get(`/v1/webhook_endpoints?starting_after=we_unknown`)).body.error).toMatchObject({
      code: 'resource_missing',
      param: 'starting_after',
    });
    expect((await mine.test.request('PUT', `/v1/webhook_endpoints/${id}`, {})).status).toBe(405);
  });
});
