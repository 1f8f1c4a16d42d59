import path from 'node:path';
import { migrate } from 'drizzle-orm/postgres-js/migrator';
import { Logger, runMigrations } from 'graphile-worker';
import { ROOT } from '@/server/config';
import { createDb } from './client';

const quietLogger = new Logger(() => () => {});

/** Brings a database to the current schema: our drizzle migrations, then graphile-worker's own. */
export async function migrateDatabase(url: string): Promise<void> {
  const db = createDb(url, { max: 1 });
  try {
    await db.execute('set client_min_messages = warning');
    await migrate(db, { migrationsFolder: path.join(ROOT, 'drizzle') });
  } finally {
    await db.$client.end();
  }
  await runMigrations({ connectionString: url, logger: quietLogger });
}
