import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { AppError } from '@/server/errors';
import { getAccountOverview } from './account-settings';

const t = useTestDatabase();

const warsawMonth = async (offsetMonths: number) =>
  (
    await t.db().execute<{ p: string }>(sql`
    select to_char((now() at time zone 'Europe/Warsaw') + make_interval(months => ${offsetMonths}), 'YYYY-MM') as p`)
  )[0]!.p;

test('issuedThisMonth is the FV counter of the current Warsaw month of the same mode only', async () => {
  const acct = await createTestAccount(t.db());
  expect((await getAccountOverview(t.db(), acct.testScope)).issuedThisMonth).toBe(0);
  const now = await warsawMonth(0);
  const before = await warsawMonth(-1);
  await t.db().execute(sql`insert into number_counters (account_id, mode, series, period, value) values
    (${acct.accountId}, 'test', 'FV', ${now}, 7),
    (${acct.accountId}, 'test', 'FV', ${before}, 40),
    (${acct.accountId}, 'test', 'KOR', ${now}, 3),
    (${acct.accountId}, 'live', 'FV', ${now}, 11)`);
  const test = await getAccountOverview(t.db(), acct.testScope);
  expect(test.issuedThisMonth).toBe(7);
  expect(test.account.id).toBe(acct.accountId);
  expect(test.mode).toMatchObject({ mode: 'test', ksefEnvironment: 'test', sellerNip: '5260250274' });
  const live = await getAccountOverview(t.db(), { accountId: acct.accountId, mode: 'live' });
  expect(live.issuedThisMonth).toBe(11);
  expect(live.mode.ksefEnvironment).toBe('prod');
});

test('another account sees its own figures through the same prepared query', async () => {
  const one = await createTestAccount(t.db());
  const two = await createTestAccount(t.db());
  await t.db().execute(sql`insert into number_counters (account_id, mode, series, period, value)
    values (${one.accountId}, 'test', 'FV', ${await warsawMonth(0)}, 5)`);
  expect((await getAccountOverview(t.db(), one.testScope)).issuedThisMonth).toBe(5);
  const other = await getAccountOverview(t.db(), two.testScope);
  expect(other.account.id).toBe(two.accountId);
  expect(other.issuedThisMonth).toBe(0);
});

test('an unknown account is resource_missing', async () => {
  const err = await getAccountOverview(t.db(), { accountId: 'acct_nope', mode: 'test' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('resource_missing');
});
