import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from './db';

const t = useTestDatabase();

test('the cloned database is migrated and UTF-8', async () => {
  const rows = await t.db().execute(sql`select pg_encoding_to_char(encoding) as enc from pg_database where datname = current_database()`);
  expect(rows[0]?.enc).toBe('UTF8');
  const jobs = await t.db().execute(sql`select count(*)::int as n from graphile_worker.jobs`);
  expect(jobs[0]?.n).toBe(0);
});
