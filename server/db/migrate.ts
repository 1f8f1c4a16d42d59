import path from 'node:path';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations } from 'graphile-worker';
import { ROOT } from '@/server/config';
import { createDb } from './client';

const quietLogger = new Logger(() => () => {});

/** Brings a database to the current schema: our drizzle migrations, then graphile-worker's own (and JOB_FUNCTION_PLANS). */
export async function migrateDatabase(url: string): Promise<void> {
  const db = createDb(url, { max: 1 });
  try {
    await db.execute('set client_min_messages = warning');
    await migrate(db, { migrationsFolder: path.join(ROOT, 'drizzle') });
    await runMigrations({ connectionString: url, logger: quietLogger });
    await db.execute(JOB_FUNCTION_PLANS);
  } finally {
    await db.$client.end();
  }
}

/**
 * graphile-worker's plpgsql functions (add_job, add_jobs, remove_job) pass their arguments to their statements as
 * parameters, and PostgreSQL planned those afresh on every call: its custom plans never cost more than the
 * generic one here, so it never switched. Planning was a third of an add_job (pgbench, one connection: 0.62 →
 * 0.41 ms a call; a document adds six jobs). The plans do not depend on the values, so the functions keep one
 * generic plan. That plan is made on a connection's first call, often while the job table is nearly empty, and
 * add_jobs' step that takes a key from a running job (`update … where jobs.key = spec.job_key and is_available is
 * not true`) was then planned as a scan of the whole table: up to 0.23 ms a call in bench/cost-per-document,
 * growing with the queue. Without sequential scans every statement of these functions uses its index (the key's,
 * the task name's) at any queue length. A statement with no index to use would still scan, at a cost PostgreSQL
 * inflates past its JIT threshold (150 ms compiling a job fetch, measured), hence no JIT. Applied after every
 * graphile-worker migration, which may replace a function and drop the settings.
 */
const JOB_FUNCTION_PLANS = `
do $$
declare f regprocedure;
begin
  for f in select oid::regprocedure from pg_proc
    where pronamespace = 'graphile_worker'::regnamespace and proname in ('add_job', 'add_jobs', 'remove_job')
  loop
    execute format('alter function %s set plan_cache_mode = force_generic_plan', f);
    execute format('alter function %s set enable_seqscan = off', f);
    execute format('alter function %s set jit = off', f);
  end loop;
end $$`;
