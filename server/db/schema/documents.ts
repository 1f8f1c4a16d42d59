import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { OUTAGE_MODES } from '@/server/outage/mode-names';
import type { TemplateParams } from '@/server/template';
import { accounts } from './accounts';
import { documentKindEnum, documentStatusEnum, ksefEnvironmentEnum, modeEnum } from './enums';

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The `last_error` object of spec 2.3 as stored (doc_url is added by the serializer); a timeline's warning also keeps
 * its text's key and params (server/documents/warning-texts.ts), so the dashboard can say it in the reader's language.
 */
export type StoredError = { type: string; code: string; message: string; param?: string; ksef_code?: number; text?: string; params?: TemplateParams };

/**
 * A fact about a document that does not stop it but that a person should see (dashboard and timeline): the invoice
 * is late (art. 106i ust. 1), the buyer's address lacks a postal code and city (art. 106e ust. 1 pkt 3), P_1 was
 * moved to the sending day, the document went to KSeF in offline mode.
 */
export type DocumentWarning = {
  code: 'invoice_late' | 'buyer_address_incomplete' | 'issue_date_moved' | 'sent_offline';
  message: string;
  text?: string;
  params?: TemplateParams;
};

/**
 * The texts the dashboard searches in one expression, so one trigram index serves a "contains" search over all of
 * them: order id, number, KSeF number, buyer name and NIP (the NIP from the stored order until the document is
 * prepared). A line feed separates them: a search box cannot type one, so no match spans two fields.
 */
export const DOCUMENT_HAYSTACK = sql.raw(
  `(coalesce(order_external_id, '') || E'\\n' || coalesce(number, '') || E'\\n' || coalesce(ksef_number, '') || E'\\n' || coalesce(buyer_name, input->'buyer'->>'name', '') || E'\\n' || coalesce(buyer_nip, input->'buyer'->>'nip', ''))`,
);

/**
 * The order of numbers (`FV/2026/11/12`, server/documents/numbering.ts): by month, then series, then the counter
 * read as a number, so FV/2026/11/10 follows FV/2026/11/9. Null while a document has no number.
 */
export const NUMBER_SORT_KEY = sql.raw(
  `(split_part(number, '/', 2) || split_part(number, '/', 3) || split_part(number, '/', 1) || lpad(split_part(number, '/', 4), 10, '0'))`,
);

export const documents = pgTable(
  'documents',
  {
    id: text().primaryKey(), // inv_… / cor_…
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    kind: documentKindEnum().notNull(),
    status: documentStatusEnum().notNull().default('pending'),
    /** For a correction: the corrected invoice. */
    invoiceId: text(),
    orderExternalId: text().notNull(),
    refundExternalId: text(),
    orderNumber: text(),
    number: text(),
    ksefNumber: text(),
    ksefEnvironment: ksefEnvironmentEnum().notNull(),
    issueDate: text(), // YYYY-MM-DD, Europe/Warsaw
    currency: text(),
    totalGrossGrosze: bigint({ mode: 'number' }),
    /** Net and VAT as numbered, beside the gross: the dashboard sums them over what its filters select. */
    totalNetGrosze: bigint({ mode: 'number' }),
    totalVatGrosze: bigint({ mode: 'number' }),
    buyerNip: text(),
    /** Filled when prepared (a correction's from its invoice's order); before that only the stored order has it. */
    buyerName: text(),
    buyerEmail: text(),
    /** The normalised order or refund (integer grosze), as validated at intake. */
    input: jsonb().notNull(),
    /** NBP table A rate used for a foreign-currency document: { rate, date, table }. */
    exchangeRate: jsonb(),
    lastError: jsonb().$type<StoredError>(),
    fa3Xml: text(),
    xmlSha256: text(),
    ksefSessionRef: text(),
    ksefInvoiceRef: text(),
    upoXml: text(),
    pdfToken: text(),
    pdfFileId: text(),
    mailStatus: text({ enum: ['not_needed', 'pending', 'sent', 'failed'] }),
    mailError: text(),
    /** When mailStatus last changed after the PDF was stored: the e-mail claimed for sending, sent or refused. */
    mailAt: timestamp({ withTimezone: true }),
    /** E-mail attempts claimed so far (at most MAIL_ATTEMPTS), and when a refused one is tried again. */
    mailAttempts: integer().notNull().default(0),
    mailRetryAt: timestamp({ withTimezone: true }),
    /** PDF renders that threw (at most PDF_ATTEMPTS), and when the lane tries this document again. */
    pdfAttempts: integer().notNull().default(0),
    pdfRetryAt: timestamp({ withTimezone: true }),
    attempts: integer().notNull().default(0),
    /**
     * Not sent before this time (null: due now): the back-off after KSeF did not answer, a Retry-After, an outage's
     * end, another step's claim still in its upload. The lane's send job runs at the earliest of its lane's.
     */
    sendAfter: timestamp({ withTimezone: true }),
    /** Warnings recorded while preparing and sending (also on the timeline). */
    warnings: jsonb()
      .$type<DocumentWarning[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Issued outside KSeF (offline24): sent with offlineMode true from then on, P_1 fixed in fa3Xml (issue 17). */
    offlineMode: boolean().notNull().default(false),
    /** When the offline PDF (KOD I OFFLINE + KOD II CERTYFIKAT) was handed over. */
    offlineIssuedAt: timestamp({ withTimezone: true }),
    /** The sending deadline of its outage mode (server/outage/modes.ts); null while the notice has no end, or none at all. */
    offlineDeadline: timestamp({ withTimezone: true }),
    /** Set once the deadline passed without a KSeF number; KSeF still accepts, the seller must know. */
    offlineDeadlineMissed: boolean().notNull().default(false),
    /**
     * The outage mode it was issued in (server/outage/modes.ts): offline24, unavailable, failure or total_failure,
     * which sets offlineDeadline and the JPK marker until KSeF numbers it; null for a document issued in KSeF.
     */
    outageMode: text({ enum: OUTAGE_MODES }),
    /** The Ministry notice (ksef_notices) in force when it was issued offline, whose end its deadline counts from. */
    outageNoticeId: bigint({ mode: 'number' }),
    /** KOD II as printed: signed once (RSA-PSS signatures differ on every signing), reused by every rendering. */
    offlineKodIiUrl: text(),
    /** A technical correction: the Base64 SHA-256 of the rejected offline XML it replaces (hashOfCorrectedInvoice). */
    correctedInvoiceHash: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    seq: bigserial({ mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('documents_order_uq')
      .on(t.accountId, t.mode, t.orderExternalId)
      .where(sql`kind = 'invoice'`),
    uniqueIndex('documents_refund_uq')
      .on(t.accountId, t.mode, t.refundExternalId)
      .where(sql`kind = 'correction'`),
    uniqueIndex('documents_seq_uq').on(t.seq),
    uniqueIndex('documents_pdf_token_uq').on(t.pdfToken),
    index('documents_newest_idx').on(t.accountId, t.mode, t.seq.desc()),
    index('documents_invoice_idx').on(t.invoiceId),
    index('documents_status_idx').on(t.accountId, t.mode, t.status),
    // the dashboard's sorts (server/documents/search-documents.ts; seq breaks ties so pages are stable), and a month's
    // register and archive in issue-date order (server/exports/register-query.ts)
    index('documents_issue_date_idx').on(t.accountId, t.mode, t.issueDate, t.seq),
    index('documents_number_idx').on(t.accountId, t.mode, NUMBER_SORT_KEY, t.seq),
    // "contains" search over the texts a person types (pg_trgm, drizzle/0011): see DOCUMENT_HAYSTACK. Writes go to
    // GIN's pending list (every transition rewrites the row's entries), kept at 256 kB: a search scans that list
    // linearly, and the default 4 MB cost searches ~400 ms at 100,000 documents (bench/document-search.ts).
    index('documents_haystack_trgm_idx')
      .using('gin', sql`(${DOCUMENT_HAYSTACK}) gin_trgm_ops`)
      .with({ gin_pending_list_limit: 256 }),
    // the seller lane's PDF and e-mail steps (server/mail/pdf-lane.ts, mail-lane.ts) and the sweep:
    // the few documents waiting for a PDF or an e-mail, never every accepted one
    index('documents_pdf_due_idx')
      .on(t.accountId, t.mode, t.seq)
      .where(sql`pdf_file_id is null and status in ('accepted', 'queued', 'sending')`),
    index('documents_mail_due_idx')
      .on(t.accountId, t.mode, t.mailRetryAt)
      .where(sql`mail_status = 'pending'`),
    index('documents_offline_deadline_idx')
      .on(t.offlineDeadline)
      .where(sql`offline_mode and ksef_number is null`),
  ],
);

export const documentTransitions = pgTable(
  'document_transitions',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    documentId: text()
      .notNull()
      .references(() => documents.id),
    fromStatus: documentStatusEnum(),
    toStatus: documentStatusEnum().notNull(),
    error: jsonb().$type<StoredError>(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('document_transitions_doc_idx').on(t.documentId, t.id),
    // the overview's documents handed to KSeF today and in the last hour (server/documents/ksef-usage.ts)
    index('document_transitions_sending_idx')
      .on(t.at)
      .where(sql`to_status = 'sending'`),
  ],
);

/** Gapless numbering (invariant 1): one row per account, mode, series and Warsaw month. */
export const numberCounters = pgTable(
  'number_counters',
  {
    accountId: text()
      .notNull()
      .references(() => accounts.id),
    mode: modeEnum().notNull(),
    series: text({ enum: ['FV', 'KOR'] }).notNull(),
    period: text().notNull(), // YYYY-MM
    value: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.mode, t.series, t.period] })],
);

export const files = pgTable('files', {
  id: text().primaryKey(), // file_…
  documentId: text()
    .notNull()
    .references(() => documents.id),
  contentType: text().notNull(),
  filename: text().notNull(),
  /** Stored uncompressed (STORAGE EXTERNAL, drizzle/0006): a PDF's streams are deflated already. */
  content: bytea().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
