import { bigserial, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { modeEnum } from './enums';

export const events = pgTable(
  'events',
  {
    id: text().primaryKey(), // evt_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    type: text().notNull(),
    documentId: text().notNull(),
    /** The whole Event JSON exactly as delivered: serialised once, signed and sent as stored. */
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    seq: bigserial({ mode: 'number' }).notNull(),
  },
  (t) => [index('events_newest_idx').on(t.accountId, t.mode, t.seq.desc()), index('events_document_idx').on(t.documentId)],
);

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text().primaryKey(), // we_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    url: text().notNull(),
    enabledEvents: text().array().notNull(),
    description: text(),
    status: text({ enum: ['enabled', 'disabled'] })
      .notNull()
      .default('enabled'),
    /** AES-256-GCM sealed `whsec_…` (invariant 6). */
    secret: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    seq: bigserial({ mode: 'number' }).notNull(),
  },
  (t) => [index('webhook_endpoints_scope_idx').on(t.accountId, t.mode, t.seq.desc())],
);

/** One row per delivery attempt. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** Null for a test event, which is not stored in `events` (server/webhooks/send-test-event.ts). */
    eventId: text().references(() => events.id),
    /** The id a test event was sent with (its KSeF-Event-Id); null for every stored event's delivery. */
    testEventId: text(),
    endpointId: text()
      .notNull()
      .references(() => webhookEndpoints.id),
    attempt: integer().notNull(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    statusCode: integer(),
    durationMs: integer(),
    responseBody: text(), // first 1 KB
    error: text(),
    delivered: text({ enum: ['yes', 'no'] }).notNull(),
    nextAttemptAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.id), index('webhook_deliveries_event_idx').on(t.eventId)],
);
