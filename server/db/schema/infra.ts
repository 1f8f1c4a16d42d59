import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { modeEnum } from './enums';

/** Stripe-style idempotency (spec section 8), scoped to account and mode. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    key: text().notNull(),
    /** SHA-256 of method, path and body: a different request under the same key is refused. */
    requestHash: text().notNull(),
    responseStatus: integer(),
    responseBody: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * The rate limiter's state per API key (server/http/rate-limit.ts, a sliding log), shared by every web process: one
 * row, updated in place, holding the times of the key's admitted requests of the last minute, oldest first (at most
 * the limit, 100 × 8 bytes). No index on it, so that the hot path's update stays a HOT update; the hourly purge scans.
 */
export const apiRateLimits = pgTable('api_rate_limits', {
  bucket: text().primaryKey(),
  admitted: timestamp({ withTimezone: true }).array().notNull(),
});

/** KSeF authentication and sessions per (account, mode); secrets sealed like credentials. */
export const ksefSessions = pgTable(
  'ksef_sessions',
  {
    id: text().primaryKey(), // kss_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    kind: text({ enum: ['online', 'batch'] }).notNull(),
    referenceNumber: text().notNull(),
    status: text({ enum: ['open', 'closing', 'closed'] })
      .notNull()
      .default('open'),
    /** Sealed AES key and IV of the session. */
    secret: text().notNull(),
    validUntil: timestamp({ withTimezone: true }),
    openedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('ksef_sessions_scope_idx').on(t.accountId, t.mode, t.status)],
);

export const ksefTokens = pgTable(
  'ksef_tokens',
  {
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    credentialVersion: integer().notNull(),
    /** Sealed JSON { accessToken, accessValidUntil, refreshToken, refreshValidUntil }. */
    tokens: text().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode] })],
);

/** NBP table A mid rates, keyed by the date asked for (the paid date) so a lookup is one row. */
export const nbpRates = pgTable(
  'nbp_rates',
  {
    currency: text().notNull(),
    forDate: text().notNull(), // YYYY-MM-DD asked for
    effectiveDate: text().notNull(), // the working day the rate is from
    tableNo: text().notNull(),
    rate: text().notNull(), // decimal text, 4 places as NBP publishes
    fetchedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.currency, t.forDate] })],
);

/** Liveness of worker processes, so jobs locked by a SIGKILLed worker can be released. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text().primaryKey(),
  startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  lastSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
  info: jsonb(),
});

/**
 * Keys a running job holds across every worker process (server/jobs/worker-locks.ts), under the graphile-worker id
 * that locked the job, so they are released with that worker's jobs. UNLOGGED (drizzle/0007): a row lives for
 * one job step, and its writes then commit without waiting for a WAL flush.
 */
export const workerLocks = pgTable('worker_locks', {
  key: text().primaryKey(),
  holder: text().notNull(),
  takenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
