import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabase } from '../../test/db';
import { createTestAccount } from '../../test/factories';
import { enableLive } from '../accounts/account-settings';
import { createDb, type Db } from '../db/client';
import { AppError } from '../errors';
import { authenticate } from './authenticate';

const t = useTestDatabase();
/** One connection, so that a setting leaking out of the statement would show on the next query. */
let single: Db;

beforeAll(() => {
  single = createDb(t.url(), { max: 1 });
  return () => single.$client.end();
});

const withKey = (key: string) => new Request('http://test/v1/account', { headers: { Authorization: `Bearer ${key}` } });
const windowCount = async (keyId: string) =>
  (await t.db().execute<{ count: number }>(sql`select count from rate_limit_windows where bucket = ${keyId}`))[0]?.count ?? 0;
const codeOf = (p: Promise<unknown>) => p.then(() => 'none', (e: unknown) => (e instanceof AppError ? e.code : String(e)));

test('a valid key gives its scope and counts the request in its window', async () => {
  const acct = await createTestAccount(t.db());
  const first = await authenticate(single, withKey(acct.testKey));
  const second = await authenticate(single, withKey(acct.testKey));
  expect(first.scope).toEqual({ accountId: acct.accountId, mode: 'test' });
  expect(first.quota).toMatchObject({ limit: 100, remaining: 99 });
  expect(second.quota.remaining).toBe(98);
  expect(second.quota.resetSeconds).toBeGreaterThanOrEqual(1);
  expect(second.quota.resetSeconds).toBeLessThanOrEqual(60);
  expect(await windowCount(first.keyId)).toBe(2);
});

test('the relaxed commit stays inside the statement: the connection keeps synchronous_commit on', async () => {
  const acct = await createTestAccount(t.db());
  await authenticate(single, withKey(acct.testKey));
  const [row] = await single.execute<{ synchronous_commit: string }>(sql`show synchronous_commit`);
  expect(row?.synchronous_commit).toBe('on');
});

test('past the limit the request is refused with rate_limited and Retry-After', async () => {
  const acct = await createTestAccount(t.db());
  for (let i = 0; i < 3; i++) await authenticate(t.db(), withKey(acct.testKey), 3);
  const err = await authenticate(t.db(), withKey(acct.testKey), 3).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('rate_limited');
  expect(Number((err as AppError).extra.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
  expect((err as AppError).extra.headers?.['RateLimit-Remaining']).toBe('0');
});

describe('refused keys are not counted', () => {
  test('a live key while live mode is disabled', async () => {
    const acct = await createTestAccount(t.db());
    expect(await codeOf(authenticate(t.db(), withKey(acct.liveKey)))).toBe('live_mode_disabled');
    const [key] = await t.db().execute<{ id: string }>(sql`select id from api_keys where account_id = ${acct.accountId} and mode = 'live'`);
    expect(await windowCount(key!.id)).toBe(0);
    await enableLive(t.db(), acct.accountId);
    const live = await authenticate(t.db(), withKey(acct.liveKey));
    expect(live.scope.mode).toBe('live');
    expect(await windowCount(key!.id)).toBe(1);
  });

  test('a revoked key and a disabled account are api_key_invalid', async () => {
    const revoked = await createTestAccount(t.db());
    await t.db().execute(sql`update api_keys set revoked_at = now() where account_id = ${revoked.accountId}`);
    const disabled = await createTestAccount(t.db());
    await t.db().execute(sql`update accounts set disabled_at = now() where id = ${disabled.accountId}`);
    expect(await codeOf(authenticate(t.db(), withKey(revoked.testKey)))).toBe('api_key_invalid');
    expect(await codeOf(authenticate(t.db(), withKey(disabled.testKey)))).toBe('api_key_invalid');
    const [{ n } = { n: -1 }] = await t.db().execute<{ n: number }>(sql`
      select count(*)::int as n from rate_limit_windows w join api_keys k on k.id = w.bucket
      where k.account_id in (${revoked.accountId}, ${disabled.accountId})`);
    expect(n).toBe(0);
  });
});

test('last_used_at is written on first use and then at most once a minute', async () => {
  const acct = await createTestAccount(t.db());
  const lastUsed = async () =>
    (await t.db().execute<{ at: string | null }>(sql`select last_used_at::text as at from api_keys where account_id = ${acct.accountId} and mode = 'test'`))[0]?.at;
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
