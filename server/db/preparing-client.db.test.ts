import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createDb, type DbOrTx } from './client';
import { accounts, documents } from './schema';

const t = useTestDatabase();
let one: ReturnType<typeof createDb> | undefined;
afterAll(() => one?.$client.end());

/** The named statements of the connection the handle runs on (a pool of one, so always the same connection). */
const preparedOn = async (db: DbOrTx) => (await db.execute<{ statement: string }>(sql`select statement from pg_prepared_statements`)).map((r) => r.statement);

test('drizzle statements become named prepared statements, in transactions and savepoints too; long in-lists stay unnamed', async () => {
  one = createDb(t.url(), { max: 1 });
  const db = one;
  expect(await db.select({ id: documents.id }).from(documents).where(eq(documents.id, 'inv_none'))).toEqual([]);
  expect(await preparedOn(db)).toContainEqual(expect.stringMatching(/^select "id" from "documents" where "documents"\."id" = \$1$/));

  await db.transaction(async (tx) => {
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, 'acct_none'));
    await tx.transaction(async (savepoint) => {
      await savepoint.select({ email: accounts.email }).from(accounts).where(eq(accounts.id, 'acct_none'));
    });
    const names = await preparedOn(tx);
    expect(names).toContainEqual(expect.stringMatching(/^select "id" from "accounts"/));
    expect(names).toContainEqual(expect.stringMatching(/^select "email" from "accounts"/));
  });

  const ids = Array.from({ length: 40 }, (_, i) => `inv_${i}`);
  expect(await db.select({ id: documents.id }).from(documents).where(inArray(documents.id, ids))).toEqual([]);
  expect((await preparedOn(db)).some((s) => s.includes('$40'))).toBe(false);
  // the same text again runs on the named statement rather than preparing a second one
  await db.select({ id: documents.id }).from(documents).where(eq(documents.id, 'inv_other'));
  expect((await preparedOn(db)).filter((s) => /^select "id" from "documents" where "documents"\."id" = \$1$/.test(s))).toHaveLength(1);
});
