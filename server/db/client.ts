import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { config } from '@/server/config';
import { metrics } from '@/server/observability/metrics';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction: services take either. */
export type DbOrTx = Db | Tx;

/** `applicationName` names the pool's connections in pg_stat_activity (default: PGAPPNAME, else postgres.js). */
export function createDb(url: string, options: { max?: number; applicationName?: string } = {}): Db {
  const connection = { TimeZone: 'UTC', ...(options.applicationName && { application_name: options.applicationName }) };
  // a connect that hangs (a server restarting, a dropped route) fails in 10 s instead of postgres.js' 30, so a job
  // waiting on it is retried sooner
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connection, connect_timeout: 10 });
  // counted for the capacity figures (queries per document, bench/cost-per-document.ts) and for operators
  const logger = { logQuery: () => metrics().dbQueries.inc() };
  return drizzle(client, { schema, casing: 'snake_case', logger }) as Db;
}

let shared: Db | undefined;

/** The process-wide pool for DATABASE_URL (set by the stack runner, the tests or the operator). */
export function db(): Db {
  if (shared) return shared;
  const url = config().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start the stack with `npm run dev` / `npm start`, or set it');
  shared = createDb(url);
  return shared;
}
