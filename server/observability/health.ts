import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ROOT } from '@/server/config';
import type { Db } from '@/server/db/client';

export type Readiness = { ready: boolean; database: 'ok' | string; migrations: 'current' | string };

/** The newest migration this build ships (drizzle's journal keeps its timestamp, which drizzle records when applied). */
function shippedMigration(): { tag: string; when: number } {
  const journal = JSON.parse(readFileSync(path.join(ROOT, 'drizzle/meta/_journal.json'), 'utf8')) as { entries: { tag: string; when: number }[] };
  return journal.entries.reduce((a, b) => (b.when > a.when ? b : a));
}

/**
 * Readiness of a process that serves or works: the database answers within the time-out and holds every
 * migration of this build (a process of a newer build waits for `npm run migrate` rather than failing requests).
 */
export async function checkReadiness(db: Db, timeoutMs = 2_000): Promise<Readiness> {
  const shipped = shippedMigration();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const applied = await Promise.race([appliedMigration(db), timeout]);
    const migrations = applied >= shipped.when ? 'current' : `behind: ${shipped.tag} is not applied (run npm run migrate)`;
    return { ready: migrations === 'current', database: 'ok', migrations };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ready: false, database: `unreachable: ${message}`, migrations: 'unknown' };
  } finally {
    clearTimeout(timer);
  }
}

/** drizzle's timestamp of the newest applied migration; 0 on a database never migrated. */
async function appliedMigration(db: Db): Promise<number> {
  const [table] = await db.execute<{ t: string | null }>(sql`select to_regclass('drizzle.__drizzle_migrations')::text as t`);
  if (!table?.t) return 0;
  const [row] = await db.execute<{ applied: string | null }>(sql`select max(created_at)::text as applied from drizzle.__drizzle_migrations`);
  return Number(row?.applied ?? 0);
}
