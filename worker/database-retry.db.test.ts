import { sql } from 'drizzle-orm';
import { runOnce } from 'graphile-worker';
import { expect, test } from 'vitest';
import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { useTestDatabase } from '@/test/db';
import { createTaskList } from './task-list';

const t = useTestDatabase();

/** A database handle whose every use fails as a driver would: what the job's code meets when its pool is cut off. */
const failingDb = (code: string) =>
  new Proxy({} as Db, {
    get: () => {
      throw Object.assign(new Error(`Failed query: select 1`), { cause: Object.assign(new Error(code), { code }) });
    },
  });

const job = async (key: string) =>
  (
    await t
      .db()
      .execute<{ attempts: number; last_error: string | null; in_s: number }>(
        sql`select attempts, last_error, extract(epoch from run_at - now())::float8 as in_s from graphile_worker.jobs where key = ${key}`,
      )
  )[0];

test('a job the database failed runs again in seconds without counting an attempt; any other failure counts one', async () => {
  await t.db().transaction(async (tx) => {
    await enqueue(tx, 'ksef_status', { accountId: 'acct_dbdown', mode: 'test', sessionRef: 'S-dbdown', poll: 3 });
    await enqueue(tx, 'pdf_render', { accountId: 'acct_broken', mode: 'test' });
  });
  const lostConnection = createTaskList(failingDb('CONNECTION_CLOSED'));
  await runOnce({ connectionString: t.url(), taskList: { ksef_status: lostConnection.ksef_status! } });
  const retried = await job('status:S-dbdown');
  expect(retried).toMatchObject({ attempts: 0, last_error: null });
  expect(retried!.in_s).toBeGreaterThan(2);
  expect(retried!.in_s).toBeLessThan(6);
  const payload = await t.db().execute<{ payload: unknown }>(sql`select payload from graphile_worker._private_jobs where key = 'status:S-dbdown'`);
  expect(payload[0]!.payload).toEqual({ accountId: 'acct_dbdown', mode: 'test', sessionRef: 'S-dbdown', poll: 3 });

  const badStatement = createTaskList(failingDb('42P01'));
  await runOnce({ connectionString: t.url(), taskList: { pdf_render: badStatement.pdf_render! } });
  expect(await job('pdf:acct_broken:test')).toMatchObject({ attempts: 1, last_error: expect.stringContaining('Failed query') });
});
