import { afterEach, expect, test } from 'vitest';
import { GET, POST } from './route';

const ctx = { params: Promise.resolve({}) };
const saved = process.env.BENCH_BARE_ROUTE;
afterEach(() => {
  if (saved === undefined) delete process.env.BENCH_BARE_ROUTE;
  else process.env.BENCH_BARE_ROUTE = saved;
});

test('without BENCH_BARE_ROUTE=1 the path is unknown: 404 route_not_found', async () => {
  delete process.env.BENCH_BARE_ROUTE;
  for (const handler of [GET, POST]) {
    const res = await handler(new Request('http://test/bench/bare'), ctx);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('route_not_found');
  }
  process.env.BENCH_BARE_ROUTE = 'yes';
  expect((await GET(new Request('http://test/bench/bare'), ctx)).status).toBe(404);
});

test('with BENCH_BARE_ROUTE=1 it answers {} with 200', async () => {
  process.env.BENCH_BARE_ROUTE = '1';
  const res = await GET(new Request('http://test/bench/bare'), ctx);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(await res.json()).toEqual({});
});
