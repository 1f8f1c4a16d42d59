import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createRenewableDb, renewPool } from './client';

const t = useTestDatabase();

const backend = async (db: ReturnType<typeof createRenewableDb>) => (await db.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`))[0]!.pid;

test('a renewed pool answers on new connections, in and out of transactions, and the old pool is ended', async () => {
  const db = createRenewableDb(t.url());
  const before = await backend(db);
  const oldClient = db.$client;
  renewPool(db);
  expect(db.$client).not.toBe(oldClient);
  const after = await backend(db);
  expect(after).not.toBe(before);
  expect(await db.transaction(async (tx) => (await tx.execute<{ n: number }>(sql`select 1 as n`))[0]!.n)).toBe(1);
  renewPool(db); // too soon after the last: the same pool
  expect(await backend(db)).toBe(after);
  await expect(oldClient`select 1`).rejects.toThrow();
  await db.$client.end();
});
