import { sql } from 'drizzle-orm';
import { bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { documents } from './documents';
import { ksefEnvironmentEnum, modeEnum } from './enums';

/**
 * One row per KSeF request, per limiter (`<environment>|<context>|<group>`): the sliding 1 s / 1 min / 1 h windows
 * of README §11 are counts over it, shared by every worker process. Rows older than an hour are deleted on use.
 */
export const ksefRequestLog = pgTable(
  'ksef_request_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    limiter: text().notNull(),
    at: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  },
  (t) => [index('ksef_request_log_limiter_at_idx').on(t.limiter, t.at)],
);

/** A 429 KSeF still answered: nothing is sent on that limiter before `blockedUntil` (its Retry-After). */
export const ksefThrottleBlocks = pgTable('ksef_throttle_blocks', {
  limiter: text().primaryKey(),
  blockedUntil: timestamp({ withTimezone: true }).notNull(),
  rateLimitedCount: integer().notNull().default(0),
  lastRateLimitedAt: timestamp({ withTimezone: true }).notNull(),
});

/** Limit values set by the operator (the Ministry adjusts them); groups without a row use the built-in table. */
export const ksefRateLimits = pgTable(
  'ksef_rate_limits',
  {
    environment: ksefEnvironmentEnum().notNull(),
    group: text().notNull(),
    perSecond: integer().notNull(),
    perMinute: integer().notNull(),
    perHour: integer().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.environment, t.group] })],
);

/**
 * A batch session of one (account, mode). Its documents are recorded before the session is opened and its
 * reference before any part is uploaded, so a crash is reconciled from KSeF's session status.
 * building → opened → uploaded → closed → done, or abandoned (provably never processed by KSeF).
 */
export const ksefBatches = pgTable(
  'ksef_batches',
  {
    id: text().primaryKey(), // ksb_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    status: text({ enum: ['building', 'opened', 'uploaded', 'closed', 'done', 'abandoned'] })
      .notNull()
      .default('building'),
    referenceNumber: text(),
    documentCount: integer().notNull(),
    sessionStatusCode: integer(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ksef_batches_scope_status_idx').on(t.accountId, t.mode, t.status),
    // the sweep's look for closed batches that lost their status job (server/submission/resend-orphans.ts)
    index('ksef_batches_closed_idx')
      .on(t.updatedAt)
      .where(sql`status = 'closed'`),
  ],
);

export const ksefBatchDocuments = pgTable(
  'ksef_batch_documents',
  {
    batchId: text()
      .notNull()
      .references(() => ksefBatches.id),
    documentId: text()
      .notNull()
      .references(() => documents.id),
    /** The file name inside the ZIP (KSeF's invoiceFileName). */
    fileName: text().notNull(),
  },
  (t) => [primaryKey({ columns: [t.batchId, t.documentId] }), index('ksef_batch_documents_document_idx').on(t.documentId)],
);
