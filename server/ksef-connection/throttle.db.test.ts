import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { getSendingStatus } from '@/server/submission/sending-status';
import { ksefLimitsFor, setKsefLimits } from './rate-limits';
import { admitKsefRequest, createThrottledFetch, limiterOf, peekWaitMs, THROTTLE_HEADER } from './throttle';

const t = useTestDatabase();

/** A stand-in KSeF that counts what reaches it and answers 429 with Retry-After when told to. */
let server: Server;
let base = '';
const arrivals: number[] = [];
let answer429 = 0;
beforeAll(async () => {
  server = createServer((req, res) => {
    arrivals.push(Date.now());
    if (answer429 > 0) {
      answer429--;
      res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' }).end('{"status":{"code":429}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('the windows admit exactly the limit and say how long to wait for the next slot', async () => {
  const limiter = 'test|1111111111|invoiceSend';
  const values = { perSecond: 100, perMinute: 3, perHour: 100 };
  for (let i = 0; i < 3; i++) expect(await admitKsefRequest(t.db(), limiter, values)).toEqual({ granted: true });
  const refused = await admitKsefRequest(t.db(), limiter, values);
  expect(refused.granted).toBe(false);
  if (!refused.granted) expect(refused.waitMs).toBeGreaterThan(59_000);
  // another seller context has its own windows
  expect(await admitKsefRequest(t.db(), 'test|2222222222|invoiceSend', values)).toEqual({ granted: true });
});

test('a peek says when `slots` requests in a row fit, takes nothing, and shares its window arithmetic with the admission', async () => {
  const limiter = 'test|5555555555|batchSession';
  const values = { perSecond: 100, perMinute: 3, perHour: Infinity };
  expect(await peekWaitMs(t.db(), limiter, values, 2)).toBe(0);
  expect(await admitKsefRequest(t.db(), limiter, values)).toEqual({ granted: true });
  expect(await admitKsefRequest(t.db(), limiter, values)).toEqual({ granted: true });
  expect(await peekWaitMs(t.db(), limiter, values, 1)).toBe(0);
  expect(await peekWaitMs(t.db(), limiter, values, 2)).toBeGreaterThan(59_000);
  expect(await peekWaitMs(t.db(), limiter, values, 1)).toBe(0); // the peeks took no slot
  expect(await admitKsefRequest(t.db(), limiter, values)).toEqual({ granted: true });
  // a window that can never hold the slots asked for: an hour, not forever
  const never = await peekWaitMs(t.db(), limiter, { perSecond: 100, perMinute: 1, perHour: 100 }, 2);
  expect(never).toBeGreaterThan(3_590_000);
  expect(never).toBeLessThanOrEqual(3_600_000);
});

test('concurrent callers (separate connections, as separate workers) never get more than the limit', async () => {
  const limiter = 'test|3333333333|batchSession';
  const values = { perSecond: 1_000, perMinute: 5, perHour: 1_000 };
  const results = await Promise.all(Array.from({ length: 20 }, () => admitKsefRequest(t.db(), limiter, values)));
  expect(results.filter((r) => r.granted)).toHaveLength(5);
});

test('per-second window: calls beyond it wait in place and arrive spread over the second', async () => {
  await setKsefLimits(t.db(), 'demo', 'sessionMisc', { perSecond: 2, perMinute: 100, perHour: 100 });
  const doFetch = createThrottledFetch(t.db(), { environment: 'demo', context: '4444444444' }, base);
  arrivals.length = 0;
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: 5 }, () => doFetch(`${base}/sessions/20250625-SB-2C3E6C8000-B675CF5D68-07`)));
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  // 2 per second: the fifth call cannot have arrived before two full windows passed
  expect(arrivals).toHaveLength(5);
  expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
  for (let i = 2; i < arrivals.length; i++) expect(arrivals[i]! - arrivals[i - 2]!).toBeGreaterThanOrEqual(1_000);
});

test('a long wait is not taken in place: the throttle answers 429 with Retry-After and KSeF sees nothing', async () => {
  await setKsefLimits(t.db(), 'demo', 'invoiceSend', { perSecond: 10, perMinute: 1, perHour: 10 });
  const doFetch = createThrottledFetch(t.db(), { environment: 'demo', context: '5555555555' }, base);
  const url = `${base}/sessions/online/20250625-SO-2C3E6C8000-B675CF5D68-07/invoices`;
  expect((await doFetch(url, { method: 'POST' })).status).toBe(200);
  arrivals.length = 0;
  const second = await doFetch(url, { method: 'POST' });
  expect(second.status).toBe(429);
  expect(second.headers.get(THROTTLE_HEADER)).toBe('1');
  expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(50);
  expect(arrivals).toHaveLength(0);
});

test('a 429 from KSeF blocks the limiter for its Retry-After and shows on the sending status', async () => {
  const acct = await createTestAccount(t.db());
  const doFetch = createThrottledFetch(t.db(), { environment: 'test', context: '5260250274' }, base);
  answer429 = 1;
  const url = `${base}/sessions/20250625-SO-2C3E6C8000-B675CF5D68-07/invoices/20250625-EE-2C3E6C8000-B675CF5D68-07`;
  expect((await doFetch(url)).status).toBe(429);
  arrivals.length = 0;
  const next = await doFetch(url);
  expect(next.status).toBe(429);
  expect(next.headers.get(THROTTLE_HEADER)).toBe('1'); // held back by us, not sent
  expect(arrivals).toHaveLength(0);
  const status = await getSendingStatus(t.db(), acct.testScope);
  expect(status.blockedUntil!.getTime()).toBeGreaterThan(Date.now() + 5_000);
  expect(status.rateLimitedCount).toBe(1);
  expect(status.windows.find((w) => w.group === 'invoiceStatus')!.used.minute).toBe(1);
});

test('limits are settable per environment and default to the production table', async () => {
  expect((await ksefLimitsFor(t.db(), 'prod')).invoiceSend).toEqual({ perSecond: 10, perMinute: 30, perHour: 180 });
  await setKsefLimits(t.db(), 'prod', 'invoiceSend', { perSecond: 5, perMinute: 20, perHour: 100 });
  expect((await ksefLimitsFor(t.db(), 'prod')).invoiceSend).toEqual({ perSecond: 5, perMinute: 20, perHour: 100 });
  expect((await ksefLimitsFor(t.db(), 'test')).invoiceSend).toEqual({ perSecond: 10, perMinute: 30, perHour: 180 });
  expect(limiterOf({ environment: 'prod', context: '1' }, 'public', 'public')).toBe('prod|*|public'); // per IP only
});
