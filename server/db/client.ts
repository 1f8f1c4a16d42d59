import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { config } from '@/server/config';
import { metrics } from '@/server/observability/metrics';
import { preparingClient } from './preparing-client';
import * as schema from './schema';

export type Db = PostgresJsDatabase<typeof schema> & { $client: postgres.Sql };
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** A database handle or an open transaction: services take either. */
export type DbOrTx = Db | Tx;

/**
 * Seconds a postgres.js pool waits before its next connect after `failures` failed ones in a row (postgres.js
 * counts them per pool and resets on a good connection). Its own wait, (0.5–1) × min(3^n / 100, 20) s, reaches
 * 10–20 s after a few seconds of failed connects, so a pool served again up to 18 s after the server was back
 * (bench/db-recovery.ts; figures in the README). Doubling from 50 ms up to 2 s, with jitter so that many processes
 * do not reconnect in step.
 */
export const reconnectBackoffSeconds = (failures: number, random: () => number = Math.random): number =>
  Math.min(2, 0.05 * 2 ** failures) * (0.5 + random() / 2);

/** `applicationName` names the pool's connections in pg_stat_activity (default: PGAPPNAME, else postgres.js). */
export function createDb(url: string, options: { max?: number; applicationName?: string; connectTimeoutSeconds?: number } = {}): Db {
  const connection = { TimeZone: 'UTC', ...(options.applicationName && { application_name: options.applicationName }) };
  // a connect that hangs (a server restarting, a dropped route) fails in 10 s instead of postgres.js' 30, so a job
  // waiting on it is retried sooner
  const client = preparingClient(
    postgres(url, {
      max: options.max ?? 10,
      onnotice: () => {},
      connection,
      connect_timeout: options.connectTimeoutSeconds ?? 10,
      backoff: (failures) => reconnectBackoffSeconds(failures),
    }),
  );
  // counted for the capacity figures (queries per document, bench/cost-per-document.ts) and for operators
  const logger = { logQuery: () => metrics().dbQueries.inc() };
  return drizzle(client, { schema, casing: 'snake_case', logger }) as Db;
}

const RENEW = Symbol('renew');
/** At most one new pool this often, however many queries report the broken one at once. */
const RENEW_AFTER_MS = 5_000;

/**
 * A Db whose pool can be replaced. postgres.js 3.4.9 can be left with connections that time out on every connect
 * after the server closed them (seen after pg_terminate_backend: CONNECT_TIMEOUT for minutes against a healthy
 * server; porsager/postgres#1193 describes the start-up reconnect loop): a new pool connects at once. The old pool
 * is ended in the background; queries already running on it finish or fail as they would have.
 */
export function createRenewableDb(url: string): Db {
  let current = createDb(url);
  let renewedAt = 0;
  const renew = () => {
    if (Date.now() - renewedAt < RENEW_AFTER_MS) return;
    renewedAt = Date.now();
    const old = current;
    current = createDb(url);
    old.$client.end({ timeout: 5 }).catch(() => {});
  };
  return new Proxy({} as Db, {
    get: (_target, prop) => {
      if (prop === RENEW) return renew;
      const value: unknown = Reflect.get(current, prop, current);
      // methods (select, transaction…) run on the current instance; own properties ($client) are given as they are
      return typeof value === 'function' && !Object.hasOwn(current, prop) ? value.bind(current) : value;
    },
  });
}

/** Replaces the pool of the process-wide Db (see createRenewableDb); a Db made by createDb is left as it is. */
export function renewPool(handle: Db): void {
  (handle as Db & { [RENEW]?: () => void })[RENEW]?.();
}

let shared: Db | undefined;

/** The process-wide pool for DATABASE_URL (set by the stack runner, the tests or the operator). */
export function db(): Db {
  if (shared) return shared;
  const url = config().DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: start the stack with `npm run dev` / `npm start`, or set it');
  shared = createRenewableDb(url);
  return shared;
}
