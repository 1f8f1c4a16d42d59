import path from 'node:path';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations } from 'graphile-worker';
import { ROOT } from '@/server/config';
import { createDb } from './client';

const quietLogger = new Logger(() => () => {});

/** Brings a database to the current schema: our drizzle migrations, then graphile-worker's own (and GENERIC_PLANS). */
export async function migrateDatabase(url: string): Promise<void> {
  const db = createDb(url, { max: 1 });
  try {
    await db.execute('set client_min_messages = warning');
    await migrate(db, { migrationsFolder: path.join(ROOT, 'drizzle') });
    await runMigrations({ connectionString: url, logger: quietLogger });
    await db.execute(GENERIC_PLANS);
  } finally {
    await db.$client.end();
  }
}

/**
 * graphile-worker's plpgsql functions (add_job, add_jobs, remove_job) pass their arguments to their statements as
 * parameters, and PostgreSQL planned those afresh on every call: its custom plans never cost more than the
 * generic one here, so it never switched. Planning was a third of an add_job (pgbench, one connection: 0.62 →
 * 0.41 ms a call; a document adds six jobs). The plans do not depend on the values, so the functions keep one
 * generic plan. Applied after every graphile-worker migration, which may replace a function and drop the setting.
 */
const GENERIC_PLANS = `
do $$
declare f regprocedure;
begin
  for f in select oid::regprocedure from pg_proc
    where pronamespace = 'graphile_worker'::regnamespace and proname in ('add_job', 'add_jobs', 'remove_job')
  loop
    execute format('alter function %s set plan_cache_mode = force_generic_plan', f);
  end loop;
end $$`;
