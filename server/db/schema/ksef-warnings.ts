import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { ksefEnvironmentEnum } from './enums';

/**
 * Every warning KSeF sent in `X-System-Warning` (API 2.6.0), one row per `[code]: message`, with the request it
 * answered. Keyed like the throttle by (environment, context NIP), since that is what a KSeF client knows; a document
 * finds its warnings by its session and invoice references or its KSeF number.
 */
export const ksefWarnings = pgTable(
  'ksef_warnings',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    environment: ksefEnvironmentEnum().notNull(),
    context: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    status: integer().notNull(),
    sessionRef: text(),
    invoiceRef: text(),
    ksefNumber: text(),
    code: text(),
    message: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ksef_warnings_context_at_idx').on(t.environment, t.context, t.at),
    index('ksef_warnings_session_ref_idx').on(t.sessionRef),
    index('ksef_warnings_invoice_ref_idx').on(t.invoiceRef),
    index('ksef_warnings_ksef_number_idx').on(t.ksefNumber),
  ],
);

export type KsefWarningRow = typeof ksefWarnings.$inferSelect;
