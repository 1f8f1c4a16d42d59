import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { config } from '../config';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction: services take either. */
export type DbOrTx = Db | Tx;

export function createDb(url: string, options: { max?: number } = {}): Db {
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connection: { TimeZone: 'UTC' } });
  return drizzle(client, { schema, casing: 'snake_case' }) as Db;
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
