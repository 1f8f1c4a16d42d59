import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { describeError } from './describe-error';

const t = useTestDatabase();

const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => expect.unreachable('the statement should fail'),
    (err: unknown) => err,
  );

test('a failed statement is described by PostgreSQL’s message, SQLSTATE and detail, then the statement; never its params', async () => {
  const err = await failure(() =>
    t.db().execute(sql`insert into accounts (id, email) values (${'acct_x'}, ${'kupiec@example.com'}), (${'acct_x'}, ${'kupiec@example.com'})`),
  );
  expect(String((err as Error).message)).toMatch(/^Failed query: /);
  const line = describeError(err);
  expect(line).toMatch(/^duplicate key value violates unique constraint "\w+" \(PostgreSQL 23505\); detail: Key \(\w+\)=/);
  expect(line).toContain('; query: insert into accounts (id, email) values ($1, $2)');
  expect(line).not.toContain('params');
});

test('a long statement is cut; an error that is not a failed statement keeps its message', async () => {
  const err = await failure(() => t.db().execute(sql.raw(`select 1/0 ${' '.repeat(10)}${'-- padding\n'.repeat(40)}`)));
  expect(describeError(err)).toMatch(/^division by zero \(PostgreSQL 22012\); query: select 1\/0 -- padding .{100,}…$/);
  expect(describeError(new Error('no account acct_1'))).toBe('no account acct_1');
  expect(describeError('plain')).toBe('plain');
});
