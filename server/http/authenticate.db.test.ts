import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { enableLive } from '@/server/accounts/account-settings';
import { createDb, type Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { authenticate } from './authenticate';
import { checkQuota, gcraStep, purgeRateLimits, quotaHeaders } from './rate-limit';

const t = useTestDatabase();
/** One connection, so that a setting leaking out of the statement would show on the next query. */
let single: Db;

beforeAll(() => {
  single = createDb(t.url(), { max: 1 });
  return () => single.$client.end();
});

const withKey = (key: string) => new Request('http://test/v1/account', { headers: { Authorization: `Bearer ${key}` } });
/** How far the key's theoretical arrival time is ahead of `at`, in ms; null when the key has no row (never counted). */
const tatAhead = async (keyId: string, at: Date) =>
  (
    await t
      .db()
      .execute<{ ms: number }>(
        sql`select (extract(epoch from tat - ${at.toISOString()}::timestamptz) * 1000)::float8 as ms from api_rate_limits where bucket = ${keyId}`,
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
  expect(first.quota).toEqual({ limit: 100, remaining: 99, resetSeconds: 1 });
  expect(second.quota).toEqual({ limit: 100, remaining: 98, resetSeconds: 2 });
  expect(await tatAhead(first.keyId, T0)).toBe(1200);
});

test('without a time given the database clock counts', async () => {
  const acct = await createTestAccount(t.db());
  const key = await authenticate(single, withKey(acct.testKey));
  expect(key.quota.remaining).toBe(99);
  const [row] = await t
    .db()
    .execute<{ ok: boolean }>(sql`select tat between now() and now() + interval '1 second' as ok from api_rate_limits where bucket = ${key.keyId}`);
  expect(row?.ok).toBe(true);
});

test('the relaxed commit stays inside the statement: the connection keeps synchronous_commit on', async () => {
  const acct = await createTestAccount(t.db());
  await authenticate(single, withKey(acct.testKey));
  const [row] = await single.execute<{ synchronous_commit: string }>(sql`show synchronous_commit`);
  expect(row?.synchronous_commit).toBe('on');
});

test('past the limit the request is refused with rate_limited and Retry-After, and one fits again after it', async () => {
  const acct = await createTestAccount(t.db());
  const limited = (now: Date) => authenticate(t.db(), withKey(acct.testKey), { limit: 3, now });
  for (let i = 0; i < 3; i++) await limited(T0);
  const err = await limited(at(1_000)).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('rate_limited');
  // 3 a minute: one slot every 20 s; the first frees at T0 + 20 s, 19 s after the refused request
  expect((err as AppError).extra.headers).toEqual({ 'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '59', 'Retry-After': '19' });
  expect(await codeOf(limited(at(19_999)))).toBe('rate_limited');
  expect((await limited(at(20_000))).quota).toEqual({ limit: 3, remaining: 0, resetSeconds: 60 });
});

test('the statement agrees with the pure GCRA (rate-limit.ts) at every step, refusals and refills included', async () => {
  const acct = await createTestAccount(t.db());
  // bursts, refusals, gaps just under and over one interval (0.6 s), and a pause long enough to refill all
  const offsetsMs = [
    ...Array.from({ length: 105 }, () => 0),
    599,
    600,
    601,
    1_200,
    1_200,
    1_799,
    30_000,
    ...Array.from({ length: 60 }, (_, i) => 30_001 + i),
    59_999,
    60_000,
    200_000,
    200_000,
  ];
  let tatUs: number | null = null;
  for (const ms of offsetsMs) {
    const nowUs = (T0.getTime() + ms) * 1000;
    const expected = gcraStep(tatUs, nowUs, 100);
    tatUs = expected.tatUs;
    const got = await authenticate(t.db(), withKey(acct.testKey), { now: at(ms) }).then(
      (key) => ({ allowed: true, headers: quotaHeaders(key.quota) }),
      (err: AppError) => ({ allowed: false, headers: err.extra.headers }),
    );
    const want = (() => {
      try {
        return { allowed: true, headers: quotaHeaders(checkQuota(expected.allowed, expected.aheadUs)) };
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
  expect(await tatAhead(old.keyId, T0)).toBeNull();
  expect(await tatAhead(current.keyId, T0)).not.toBeNull();
});

describe('refused keys are not counted', () => {
  test('a live key while live mode is disabled', async () => {
    const acct = await createTestAccount(t.db());
    expect(await codeOf(authenticate(t.db(), withKey(acct.liveKey)))).toBe('live_mode_disabled');
    const [key] = await t.db().execute<{ id: string }>(sql`select id from api_keys where account_id = ${acct.accountId} and mode = 'live'`);
    expect(await tatAhead(key!.id, T0)).toBeNull();
    await enableLive(t.db(), acct.accountId);
    const live = await authenticate(t.db(), withKey(acct.liveKey), { now: T0 });
    expect(live.scope.mode).toBe('live');
    expect(await tatAhead(key!.id, T0)).toBe(600);
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
