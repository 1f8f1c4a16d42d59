import { spawn } from 'node:child_process';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { ROOT } from '@/server/config';
import { useTestDatabase } from '@/test/db';

const t = useTestDatabase();
const PROCESSES = 16;

function cli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.url() },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  proc.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => proc.once('exit', (status) => resolve({ status, stdout, stderr })));
}

const jobFunctionSettings = () =>
  t.db().execute<{ config: string[] | null }>(sql`
    select proconfig as config from pg_proc
    where pronamespace = 'graphile_worker'::regnamespace and proname in ('add_job', 'add_jobs', 'remove_job')`);

test(`${PROCESSES} CLI processes started at once all succeed (each brings the database to the schema first)`, async () => {
  // as after a graphile-worker upgrade: every start has the job functions' settings to apply, the DDL that raced
  await t.db().execute(sql`do $$ declare f regprocedure; begin
    for f in select oid::regprocedure from pg_proc
      where pronamespace = 'graphile_worker'::regnamespace and proname in ('add_job', 'add_jobs', 'remove_job')
    loop execute format('alter function %s reset all', f); end loop; end $$`);
  const runs = await Promise.all(Array.from({ length: PROCESSES }, (_, i) => cli(['account', 'create', '--email', `start-${i}@example.test`])));
  const failed = runs.filter((r) => r.status !== 0).map((r) => `${r.status}: ${r.stdout}${r.stderr.slice(-500)}`);
  expect(failed).toEqual([]);
  const accounts = runs.map((r) => (JSON.parse(r.stdout) as { account: string }).account);
  expect(new Set(accounts).size).toBe(PROCESSES);
  for (const r of await jobFunctionSettings()) expect(r.config).toEqual(expect.arrayContaining(['plan_cache_mode=force_generic_plan', 'jit=off']));
}, 240_000);
