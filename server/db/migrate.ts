import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations } from 'graphile-worker';
import { ROOT } from '@/server/config';
import { createDb } from './client';

const quietLogger = new Logger(() => () => {});

/**
 * Brings a database to the current schema: our drizzle migrations, then graphile-worker's own (and JOB_FUNCTION_PLANS).
 * Every CLI command and the dev stack call it on start, so processes started together call it at once: the advisory
 * lock, held by this pool's one connection until it ends, lets one at a time in. Without it two of them altered the
 * same function together and one failed (`tuple concurrently updated`; seen once in 120 CLI starts, 4 at a time, and in 2 of 16 started at once).
 * On a database already current it changes nothing.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const db = createDb(url, { max: 1 });
  try {
    await db.execute('set client_min_messages = warning');
    await db.execute(sql`select pg_advisory_lock(hashtextextended('ksef_relay.migrate', 0))`);
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
 * graphile-worker migration, which may replace a function and drop the settings; a function that has them already is
 * left alone, so a start against a current database runs no DDL.
 */
const JOB_FUNCTION_PLANS = `
do $$
declare f regprocedure;
begin
  for f in select oid::regprocedure from pg_proc
    where pronamespace = 'graphile_worker'::regnamespace and proname in ('add_job', 'add_jobs', 'remove_job')
      and not coalesce(proconfig, '{}') @> array['plan_cache_mode=force_generic_plan', 'enable_seqscan=off', 'jit=off']
  loop
    execute format('alter function %s set plan_cache_mode = force_generic_plan', f);
    execute format('alter function %s set enable_seqscan = off', f);
    execute format('alter function %s set jit = off', f);
  end loop;
end $$`;
