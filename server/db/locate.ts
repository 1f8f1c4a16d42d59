import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../config';
import { ensureDatabase, startEmbeddedPostgres } from './embedded';

/** Local state of the dev stack (embedded database, app secret, demo account); KR_DATA_DIR moves it (tests). */
export const DATA_DIR = process.env.KR_DATA_DIR ?? path.join(ROOT, '.data');
const URL_FILE = path.join(DATA_DIR, 'database-url');
const EMBEDDED_PORT = Number(process.env.EMBEDDED_PG_PORT ?? 54329);
const EMBEDDED_DATABASE = 'ksef_relay';

export type LocatedDatabase = { url: string; embedded: boolean; stop: () => Promise<void> };

/**
 * DATABASE_URL when set; otherwise the embedded cluster under .data/pg, started here unless the running
 * stack already has it up (it leaves the URL in .data/database-url while it runs).
 */
export async function locateDatabase(options: { reuseRunning: boolean }): Promise<LocatedDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, embedded: false, stop: async () => {} };
  if (options.reuseRunning && existsSync(URL_FILE) && existsSync(path.join(DATA_DIR, 'pg', 'postmaster.pid'))) {
    return { url: readFileSync(URL_FILE, 'utf8').trim(), embedded: true, stop: async () => {} };
  }
  mkdirSync(DATA_DIR, { recursive: true });
  const pg = await startEmbeddedPostgres(path.join(DATA_DIR, 'pg'), EMBEDDED_PORT);
  await ensureDatabase(pg.adminUrl, EMBEDDED_DATABASE);
  const url = pg.url(EMBEDDED_DATABASE);
  writeFileSync(URL_FILE, url);
  return { url, embedded: true, stop: pg.stop };
}
