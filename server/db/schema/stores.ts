import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { documents } from './documents';
import { modeEnum } from './enums';

const at = () => timestamp({ withTimezone: true });

/** What the last reconciliation did, shown on the store page. */
export type StoreSyncResult = { orders: number; invoiced: number; corrected: number; webhooks: string[]; error?: string };

/** The shop platforms with an adapter in server/stores/<platform>/ (a text column: adding one needs no migration). */
export const STORE_PLATFORMS = ['woocommerce'] as const;

/** A shop connected to one account and mode (DESIGN.md "Store connections"). */
export const storeConnections = pgTable(
  'store_connections',
  {
    id: text().primaryKey(), // st_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    platform: text({ enum: STORE_PLATFORMS }).notNull().default('woocommerce'),
    /** The shop's home URL with a trailing slash: REST paths and OAuth base strings hang off it. */
    url: text().notNull(),
    /** Sealed JSON { consumerKey, consumerSecret } (invariant 6). */
    credentials: text().notNull(),
    /** Order statuses that mean "invoice now"; cash on delivery still waits for completed (map-order.ts). */
    invoiceStatuses: text()
      .array()
      .notNull()
      .default(sql`array['processing','completed']::text[]`),
    /** Meta keys holding the buyer NIP, first non-empty wins; null: the mapping's default list. */
    nipMetaKeys: text().array(),
    /** Gateway id → payment method, over the mapping's defaults. */
    paymentMethods: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** Write the invoice note as a customer note (the buyer sees it and gets WooCommerce's note e-mail). */
    customerNote: boolean().notNull().default(true),
    status: text({ enum: ['connecting', 'connected', 'disconnected'] })
      .notNull()
      .default('connecting'),
    /**
     * Orders placed before this are not invoiced, nor their refunds (the shop may have invoiced them elsewhere):
     * chosen at connect, by default the moment of connecting; reconciliation never lists from earlier.
     */
    invoiceFrom: at().notNull().defaultNow(),
    /** Start of the last completed reconciliation: the next one lists orders modified since then (minus overlap). */
    lastSyncAt: at(),
    lastSyncResult: jsonb().$type<StoreSyncResult>(),
    createdAt: at().notNull().defaultNow(),
    disconnectedAt: at(),
  },
  (t) => [
    uniqueIndex('store_connections_scope_uq')
      .on(t.accountId, t.mode)
      .where(sql`status <> 'disconnected'`),
  ],
);

/** Our webhooks registered in the store, one per topic, each with its own sealed secret. */
export const storeWebhooks = pgTable(
  'store_webhooks',
  {
    storeId: text()
      .notNull()
      .references(() => storeConnections.id),
    /** The store's numeric webhook id (X-WC-Webhook-ID). */
    remoteId: bigint({ mode: 'number' }).notNull(),
    topic: text().notNull(),
    secret: text().notNull(),
    /** Status seen in the store at the last check. */
    status: text().notNull().default('active'),
    /** Why it was re-created, for the store page. */
    note: text(),
    createdAt: at().notNull().defaultNow(),
    checkedAt: at(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.remoteId] })],
);

/** Verified deliveries, deduplicated by a hash of topic, webhook id and raw body (the delivery id is not unique). */
export const storeDeliveries = pgTable(
  'store_deliveries',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    storeId: text()
      .notNull()
      .references(() => storeConnections.id),
    hash: text().notNull(),
    topic: text().notNull(),
    remoteWebhookId: bigint({ mode: 'number' }).notNull(),
    body: jsonb().notNull(),
    receivedAt: at().notNull().defaultNow(),
    processedAt: at(),
  },
  (t) => [uniqueIndex('store_deliveries_hash_uq').on(t.storeId, t.hash), index('store_deliveries_received_idx').on(t.storeId, t.receivedAt)],
);

/**
 * What happened to each store order and refund: invoiced / corrected, or skipped with the reason (B2C, not paid,
 * bad NIP…). Skips are recorded, not retried; a later change of the order in the store is looked at again.
 */
export const storeOrders = pgTable(
  'store_orders',
  {
    storeId: text()
      .notNull()
      .references(() => storeConnections.id),
    kind: text({ enum: ['order', 'refund'] }).notNull(),
    remoteId: bigint({ mode: 'number' }).notNull(),
    remoteOrderId: bigint({ mode: 'number' }).notNull(),
    outcome: text({ enum: ['invoiced', 'corrected', 'skipped', 'failed'] }).notNull(),
    reason: text(),
    message: text(),
    documentId: text(),
    updatedAt: at().notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.storeId, t.kind, t.remoteId] }), index('store_orders_outcome_idx').on(t.storeId, t.outcome)],
);

/**
 * Why a write-back stopped for good: the order is gone from the store (404), or the store refuses our key (401/403:
 * revoked, or no longer allowed to write). Retrying either cannot succeed.
 */
export const WRITEBACK_GIVE_UP_REASONS = ['order_gone', 'keys_refused'] as const;

/** Documents that came from a store: accepted ones are written back to the order (note and meta). */
export const storeDocuments = pgTable(
  'store_documents',
  {
    documentId: text()
      .primaryKey()
      .references(() => documents.id),
    storeId: text()
      .notNull()
      .references(() => storeConnections.id),
    remoteOrderId: bigint({ mode: 'number' }).notNull(),
    noteAddedAt: at(),
    metaWrittenAt: at(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    /** Set when the write-back gave up (no more attempts); `lastError` says what the store answered. */
    gaveUpAt: at(),
    gaveUpReason: text({ enum: WRITEBACK_GIVE_UP_REASONS }),
  },
  (t) => [
    index('store_documents_gave_up_idx')
      .on(t.storeId, t.gaveUpAt)
      .where(sql`gave_up_at is not null`),
  ],
);
