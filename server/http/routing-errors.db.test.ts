import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { setLogDestination } from '@/server/observability/log';
import { metrics } from '@/server/observability/metrics';
import { routeNotFound, setRouteDb, v1Routes } from './route';

const t = useTestDatabase();
const routes = v1Routes({ GET: { handle: async () => ({ status: 200, body: { ok: true } }) } });
const noParams = { params: Promise.resolve({}) };
let key = '';
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  setRouteDb(() => t.db());
  key = (await createTestAccount(t.db())).testKey;
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
        done();
      },
    }),
  );
});
afterAll(() => setLogDestination(undefined));

const req = (path: string, method = 'GET', k: string | null = key) =>
  new Request(`http://test${path}`, { method, headers: k ? { Authorization: `Bearer ${k}` } : {} });
const remaining = (res: Response) => Number(res.headers.get('RateLimit-Remaining'));

describe('404 route_not_found and 405 method_not_allowed (spec 8: rate-limit headers on every response)', () => {
  test('with a key, both carry RateLimit-* and count in the key’s window like any request', async () => {
    const ok = await routes.GET(req('/v1/things'), noParams);
    const notFound = await routeNotFound(req('/v1/nothing-here'), noParams);
    const wrongMethod = await routes.PATCH(req('/v1/things', 'PATCH'), noParams);
    expect([ok.status, notFound.status, wrongMethod.status]).toEqual([200, 404, 405]);
    for (const res of [notFound, wrongMethod]) {
      expect(res.headers.get('RateLimit-Limit')).toBe('100');
      expect(Number(res.headers.get('RateLimit-Reset'))).toBeGreaterThan(0);
      expect(res.headers.get('Request-Id')).toMatch(/^req_/);
    }
    expect(remaining(notFound)).toBe(remaining(ok) - 1);
    expect(remaining(wrongMethod)).toBe(remaining(ok) - 2);
    expect(wrongMethod.headers.get('Allow')).toBe('GET');
    expect((await notFound.json()).error.code).toBe('route_not_found');
  });

  test('past the limit a 404 with the key is 429 with Retry-After, as every endpoint answers', async () => {
    const spender = (await createTestAccount(t.db())).testKey;
    for (let i = 0; i < 100; i++) await routeNotFound(req('/v1/nope', 'GET', spender), noParams);
    const res = await routeNotFound(req('/v1/nope', 'GET', spender), noParams);
    expect(res.status).toBe(429);
    expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(remaining(res)).toBe(0);
  });

  test('without a usable key the routing error stays, uncounted: the headers show the whole limit', async () => {
    for (const k of [null, 'sk_test_wrongwrongwrongwrong']) {
      const res = await routeNotFound(req('/nothing', 'GET', k), noParams);
      expect(res.status).toBe(404);
      expect(res.headers.get('RateLimit-Limit')).toBe('100');
      expect(res.headers.get('RateLimit-Remaining')).toBe('100');
    }
  });
});

describe('access log and request metric', () => {
  test('one line per request with request id, account and mode, the route template and no query string', async () => {
    lines.length = 0;
    const res = await routes.GET(req('/v1/things/inv_abc123?email=kupiec@example.com'), noParams);
    const line = lines.find((l) => l.msg === 'request')!;
    expect(line).toMatchObject({ requestId: res.headers.get('Request-Id'), mode: 'test', route: '/v1/things/{id}', status: 200, level: 'info' });
    expect(line.accountId).toMatch(/^acct_/);
    expect(JSON.stringify(lines)).not.toContain('kupiec');
    const text = await metrics().registry.getSingleMetricAsString('ksef_relay_http_request_duration_seconds');
    expect(text).toMatch(/ksef_relay_http_request_duration_seconds_count\{route="\/v1\/things\/\{id\}",method="GET",status="200"\} \d+/);
  });

  test('an internal error is logged at error level with the request id that the answer carries', async () => {
    lines.length = 0;
    const failing = v1Routes({ GET: { handle: async () => Promise.reject(new Error('database on fire')) } });
    const res = await failing.GET(req('/v1/boom'), noParams);
    expect(res.status).toBe(500);
    const errors = lines.filter((l) => l.level === 'error');
    expect(errors.map((l) => l.msg)).toEqual(['internal_error', 'request']);
    for (const l of errors) expect(l.requestId).toBe(res.headers.get('Request-Id'));
  });
});
