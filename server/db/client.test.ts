import { expect, test } from 'vitest';
import { createDb, reconnectBackoffSeconds } from './client';

test("a pool's wait before reconnecting doubles from 50 ms and stays at most 2 s however long the outage, with jitter", () => {
  const top = (n: number) => reconnectBackoffSeconds(n, () => 1);
  const bottom = (n: number) => reconnectBackoffSeconds(n, () => 0);
  expect([1, 2, 3, 4, 5, 6].map(top)).toEqual([0.1, 0.2, 0.4, 0.8, 1.6, 2]);
  expect([top(50), top(1_000)]).toEqual([2, 2]);
  expect([bottom(1), bottom(1_000)]).toEqual([0.05, 1]);
});

test('every pool createDb makes waits by it (no connection is made until a query)', async () => {
  const db = createDb('postgres://nobody@127.0.0.1:1/none');
  const backoff = (db.$client.options as unknown as { backoff: (n: number) => number }).backoff;
  expect(backoff(1_000)).toBeLessThanOrEqual(2);
  await db.$client.end();
});
