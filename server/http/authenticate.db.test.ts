import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { enableLive } from '@/server/accounts/account-settings';
import { createDb, type Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { authenticate } from './authenticate';
import { checkQuota, purgeRateLimits, quotaHeaders, slidingLogStep } from './rate-limit';

const t = useTestDatabase();
/** One connection, so that a setting leaking out of the statement would show on the next query. */
let single: Db;

beforeAll(() => {
  single = createDb(t.url(), { max: 1 });
  return () => single.$client.end();
});

const withKey = (key: string) => new Request('http://test/v1/account', { headers: { Authorization: `Bearer ${key}` } });
/** The key's admitted requests as ms after `at`, oldest first; null when the key has no row (never counted). */
const logOf = async (keyId: string, at: Date) =>
  (
    await t.db().execute<{ ms: number[] }>(
      sql`select array(select (extract(epoch from a - ${at.toISOString()}::timestamptz) * 1000)::float8 from unnest(admitted) a) as ms
        from api_rate_limits where bucket = ${keyId}`,
    )
  )[0]?.ms ?? null;
/** A fixed instant for the limiter, so that no test depends on the wall clock. */
const T0 = new Date('2026-03-02T09:59:59.900Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'none',
    (e: unknown) => (e instanceof AppError ? e.code : String(e)),
  );

test('a valid key gives its scope and takes the request from its quota', async () => {
  const acct = await createTestAccount(t.db());
  const first = await authenticate(single, withKey(acct.testKey), { now: T0 });
  const second = await authenticate(single, withKey(acct.testKey), { now: T0 });
  expect(first.scope).toEqual({ accountId: acct.accountId, mode: 'test' });
  expect(first.quota).toEqual({ limit: 100, remaining: 99, resetSeconds: 60 });
  expect(second.quota).toEqual({ limit: 100, remaining: 98, resetSeconds: 60 });
  expect(await logOf(first.keyId, T0)).toEqual([0, 0]);
});

test('without a time given the database clock counts', async () => {
  const acct = await createTestAccount(t.db());
  const key = await authenticate(single, withKey(acct.testKey));
  expect(key.quota.remaining).toBe(99);
  const [row] = await t
    .db()
    .execute<{ ok: boolean }>(sql`select admitted[1] between now() - interval '1 second' and now() as ok from api_rate_limits where bucket = ${key.keyId}`);
  expect(row?.ok).toBe(true);
});

test('the relaxed commit stays inside the statement: the connection keeps synchronous_commit on', async () => {
  const acct = await createTestAccount(t.db());
  await authenticate(single, withKey(acct.testKey));
  const [row] = await single.execute<{ synchronous_commit: string }>(sql`show synchronous_commit`);
  expect(row?.synchronous_commit).toBe('on');
});

test('past the limit the request is refused with rate_limited and Retry-After, and one fits when the oldest leaves', async () => {
  const acct = await createTestAccount(t.db());
  const limited = (now: Date) => authenticate(t.db(), withKey(acct.testKey), { limit: 3, now });
  expect((await limited(T0)).quota.remaining).toBe(2);
  expect((await limited(at(10_000))).quota).toEqual({ limit: 3, remaining: 1, resetSeconds: 50 });
  expect((await limited(at(10_000))).quota).toEqual({ limit: 3, remaining: 0, resetSeconds: 50 });
  const err = await limited(at(11_000)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('rate_limited');
  // the oldest (T0) leaves the window at T0 + 60 s, 49 s after the refused request
  expect((err as AppError).extra.headers).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '49', 'Retry-After': '49' });
  expect(await codeOf(limited(at(59_999)))).toBe('rate_limited');
  expect((await limited(at(60_000))).quota).toEqual({ limit: 3, remaining: 0, resetSeconds: 10 });
  const [{ id } = { id: '' }] = await t.db().execute<{ id: string }>(sql`select id from api_keys where account_id = ${acct.accountId} and mode = 'test'`);
  // refused requests stored nothing; the entry that left the window is gone
  expect(await logOf(id, T0)).toEqual([10_000, 10_000, 60_000]);
});

test('100 requests within 10 s: Remaining goes down by one each, 0 after the 100th, the 101st is 429', async () => {
  const acct = await createTestAccount(t.db());
  const remaining: number[] = [];
  for (let i = 0; i < 100; i++) remaining.push((await authenticate(t.db(), withKey(acct.testKey), { now: at(i * 100) })).quota.remaining);
  expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
  const err = (await authenticate(t.db(), withKey(acct.testKey), { now: at(10_000) }).catch((e: unknown) => e)) as AppError;
  expect(err.code).toBe('rate_limited');
  expect(err.extra.headers?.['Retry-After']).toBe('50');
});

test('the statement agrees with the pure sliding log (rate-limit.ts) at every step, refusals and refills included', async () => {
  const acct = await createTestAccount(t.db());
  // bursts, refusals, requests at and just before the oldest's 60 s, and a pause long enough to empty the window
  const offsetsMs = [
    ...Array.from({ length: 50 }, () => 0),
    ...Array.from({ length: 55 }, (_, i) => 1_000 + i * 10),
    599,
    30_000,
    59_999,
    60_000,
    60_000,
    60_999,
    61_000,
    ...Array.from({ length: 60 }, (_, i) => 61_001 + i * 7),
    119_999,
    120_000,
    200_000,
    200_000,
  ];
  let logUs: number[] = [];
  for (const ms of offsetsMs) {
    const expected = slidingLogStep(logUs, (T0.getTime() + ms) * 1000, 100);
    logUs = expected.logUs;
    const got = await authenticate(t.db(), withKey(acct.testKey), { now: at(ms) }).then(
      (key) => ({ allowed: true, headers: quotaHeaders(key.quota) }),
      (err: AppError) => ({ allowed: false, headers: err.extra.headers }),
    );
    const want = (() => {
      try {
        return { allowed: true, headers: quotaHeaders(checkQuota(expected.allowed, expected.used, expected.freesInUs)) };
      } catch (err) {
        return { allowed: false, headers: (err as AppError).extra.headers };
      }
    })();
    expect({ ms, ...got }).toEqual({ ms, ...want });
  }
});

test('concurrent requests of one key at one instant: exactly the limit is accepted', async () => {
  const acct = await createTestAccount(t.db());
  const results = await Promise.all(Array.from({ length: 130 }, () => codeOf(authenticate(t.db(), withKey(acct.testKey), { now: T0 }))));
  expect(results.filter((r) => r === 'none')).toHaveLength(100);
  expect(results.filter((r) => r === 'rate_limited')).toHaveLength(30);
});

test('no burst of 200 fits across a minute edge: 100 before 10:00:00 and 100 after it give 100', async () => {
  const acct = await createTestAccount(t.db());
  const burst = (now: Date) => Promise.all(Array.from({ length: 100 }, () => codeOf(authenticate(t.db(), withKey(acct.testKey), { now }))));
  const before = await burst(T0); // 09:59:59.900
  const after = await burst(at(200)); // 10:00:00.100
  expect(before.filter((r) => r === 'none')).toHaveLength(100);
  expect(after.filter((r) => r === 'none')).toHaveLength(0);
});

test('the maintenance purge drops rows whose quota is full again and keeps the others', async () => {
  const spent = await createTestAccount(t.db());
  const fresh = await createTestAccount(t.db());
  const old = await authenticate(t.db(), withKey(spent.testKey), { now: new Date(Date.now() - 3_600_000) });
  const current = await authenticate(t.db(), withKey(fresh.testKey), { now: new Date(Date.now() + 3_600_000) });
  expect(await purgeRateLimits(t.db())).toBeGreaterThanOrEqual(1);
  expect(await logOf(old.keyId, T0)).toBeNull();
  expect(await logOf(current.keyId, T0)).not.toBeNull();
});

describe('refused keys are not counted', () => {
  test('a live key while live mode is disabled', async () => {
    const acct = await createTestAccount(t.db());
    expect(await codeOf(authenticate(t.db(), withKey(acct.liveKey)))).toBe('live_mode_disabled');
    const [key] = await t.db().execute<{ id: string }>(sql`select id from api_keys where account_id = ${acct.accountId} and mode = 'live'`);
    expect(await logOf(key!.id, T0)).toBeNull();
    await enableLive(t.db(), acct.accountId);
    const live = await authenticate(t.db(), withKey(acct.liveKey), { now: T0 });
    expect(live.scope.mode).toBe('live');
    expect(await logOf(key!.id, T0)).toEqual([0]);
  });

  test('a revoked key and a disabled account are api_key_invalid', async () => {
    const revoked = await createTestAccount(t.db());
    await t.db().execute(sql`update api_keys set revoked_at = now() where account_id = ${revoked.accountId}`);
    const disabled = await createTestAccount(t.db());
    await t.db().execute(sql`update accounts set disabled_at = now() where id = ${disabled.accountId}`);
    expect(await codeOf(authenticate(t.db(), withKey(revoked.testKey)))).toBe('api_key_invalid');
    expect(await codeOf(authenticate(t.db(), withKey(disabled.testKey)))).toBe('api_key_invalid');
    const [{ n } = { n: -1 }] = await t.db().execute<{ n: number }>(sql`
      select count(*)::int as n from api_rate_limits r join api_keys k on k.id = r.bucket
      where k.account_id in (${revoked.accountId}, ${disabled.accountId})`);
    expect(n).toBe(0);
  });
});

test('last_used_at is written on first use and then at most once a minute', async () => {
  const acct = await createTestAccount(t.db());
  const lastUsed = async () =>
    (await t.db().execute<{ at: string | null }>(sql`select last_used_at::text as at from api_keys where account_id = ${acct.accountId} and mode = 'test'`))[0]
      ?.at;
  expect(await lastUsed()).toBeNull();
  await authenticate(t.db(), withKey(acct.testKey));
  const first = await lastUsed();
  expect(first).not.toBeNull();
  await authenticate(t.db(), withKey(acct.testKey));
  expect(await lastUsed()).toBe(first);
  await t.db().execute(sql`update api_keys set last_used_at = now() - interval '2 minutes' where account_id = ${acct.accountId} and mode = 'test'`);
  const aged = await lastUsed();
  await authenticate(t.db(), withKey(acct.testKey));
  expect(await lastUsed()).not.toBe(aged);
});
