import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';

const t = useTestDatabase();

test("graphile-worker's job functions keep one generic plan that uses indexes (migrateDatabase's JOB_FUNCTION_PLANS)", async () => {
  const rows = await t.db().execute<{ name: string; config: string[] | null }>(sql`
    select proname as name, proconfig as config from pg_proc
    where pronamespace = 'graphile_worker'::regnamespace and proname in ('add_job', 'add_jobs', 'remove_job') order by proname`);
  expect(rows.map((r) => r.name)).toEqual(['add_job', 'add_jobs', 'remove_job']);
  for (const r of rows) expect(r.config).toEqual(expect.arrayContaining(['plan_cache_mode=force_generic_plan', 'enable_seqscan=off', 'jit=off']));
});

test('stored PDFs are not compressed again: files.content has STORAGE EXTERNAL (drizzle/0006)', async () => {
  const [row] = await t.db().execute<{ storage: string }>(sql`
    select attstorage as storage from pg_attribute where attrelid = 'files'::regclass and attname = 'content'`);
  expect(row?.storage).toBe('e');
});
