import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { config } from '@/server/config';
import { ensureDatabase, startEmbeddedPostgres } from './embedded';

/** Local state of the dev stack (embedded database, app secret, demo account); KR_DATA_DIR moves it (tests). */
export const DATA_DIR = config().KR_DATA_DIR;
const URL_FILE = path.join(DATA_DIR, 'database-url');
const EMBEDDED_DATABASE = 'ksef_relay';

export type LocatedDatabase = { url: string; embedded: boolean; stop: () => Promise<void> };

/**
 * DATABASE_URL when set; otherwise the embedded cluster under .data/pg, started here unless the running
 * stack already has it up (it leaves the URL in .data/database-url while it runs).
 */
export async function locateDatabase(options: { reuseRunning: boolean }): Promise<LocatedDatabase> {
  const fromEnv = config().DATABASE_URL;
  if (fromEnv) return { url: fromEnv, embedded: false, stop: async () => {} };
  if (options.reuseRunning && existsSync(URL_FILE) && existsSync(path.join(DATA_DIR, 'pg', 'postmaster.pid'))) {
    return { url: readFileSync(URL_FILE, 'utf8').trim(), embedded: true, stop: async () => {} };
  }
  mkdirSync(DATA_DIR, { recursive: true });
  const pg = await startEmbeddedPostgres(path.join(DATA_DIR, 'pg'), config().EMBEDDED_PG_PORT);
  await ensureDatabase(pg.adminUrl, EMBEDDED_DATABASE);
  const url = pg.url(EMBEDDED_DATABASE);
  writeFileSync(URL_FILE, url);
  return { url, embedded: true, stop: pg.stop };
}
