import { and, desc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { documents, storeConnections, storeDocuments, type WRITEBACK_GIVE_UP_REASONS } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import { pdfUrl } from '@/server/documents/serialize-document';
import { randomToken } from '@/server/ids';
import { reportFailure } from '@/server/observability/failures';
import { loadDocument } from '@/server/documents/load-document';
import type { StoreFailure } from './platform';
import { platformOf } from './platforms';
import { findStore, reportStoreCallFailure, storeApi } from './store-row';

export type WritebackGiveUpReason = (typeof WRITEBACK_GIVE_UP_REASONS)[number];

/** A store answer that no retry can change, as the adapter classifies it: the order is gone, or our key is refused. */
const GIVE_UP: Record<StoreFailure, WritebackGiveUpReason | undefined> = { gone: 'order_gone', keys_refused: 'keys_refused', retry: undefined };

export type WritebackText = { kind: 'invoice' | 'correction'; number: string; ksefNumber: string; pdfUrl: string; invoiceNumber?: string | null };

/** The order note (Polish: the shop's buyers read it in their account and in WooCommerce's note e-mail). */
export function writebackNote(t: WritebackText): string {
  const what = t.kind === 'invoice' ? `Faktura ${t.number}` : `Faktura korygująca ${t.number}${t.invoiceNumber ? ` do faktury ${t.invoiceNumber}` : ''}`;
  return `${what} została wystawiona w KSeF (numer KSeF: ${t.ksefNumber}). PDF: ${t.pdfUrl}`;
}

/**
 * After a store document is accepted: an order note with the number, KSeF number and pdf_url (a customer note when
 * the store setting says so) and, for the invoice, the numbers and link as order meta (WooCommerce: _ksef_number,
 * _ksef_invoice_number, _ksef_pdf_url). Each step is remembered, so a retry does not add the note twice. Failures
 * throw for the job to retry and never touch the document, except those no retry can fix (GIVE_UP): they are
 * recorded and end the job at once. The PDF link's token is fixed now (the PDF renderer keeps an existing one), so
 * the link in the note works as soon as the PDF is rendered.
 */
export async function writeBackDocument(db: Db, documentId: string): Promise<'done' | 'skipped' | 'gave_up'> {
  const [link] = await db.select().from(storeDocuments).where(eq(storeDocuments.documentId, documentId));
  if (!link || link.gaveUpAt) return 'skipped';
  const store = await findStore(db, link.storeId);
  const doc = await loadDocument(db, documentId);
  if (!store || store.status === 'disconnected' || !doc || doc.status !== 'accepted' || !doc.number || !doc.ksefNumber) return 'skipped';
  if (link.noteAddedAt && (doc.kind !== 'invoice' || link.metaWrittenAt)) return 'done';
  const [tokenRow] = await db
    .update(documents)
    .set({ pdfToken: sql`coalesce(${documents.pdfToken}, ${randomToken(128)})` })
    .where(eq(documents.id, documentId))
    .returning({ pdfToken: documents.pdfToken });
  const url = pdfUrl(tokenRow!.pdfToken!);
  let invoiceNumber: string | null = null;
  if (doc.kind === 'correction' && doc.invoiceId) {
    const [invoice] = await db.select({ number: documents.number }).from(documents).where(eq(documents.id, doc.invoiceId));
    invoiceNumber = invoice?.number ?? null;
  }
  const api = storeApi(store);
  try {
    if (!link.noteAddedAt) {
      await api.addNote(
        link.remoteOrderId,
        writebackNote({ kind: doc.kind, number: doc.number, ksefNumber: doc.ksefNumber, pdfUrl: url, invoiceNumber }),
        store.customerNote,
      );
      await db
        .update(storeDocuments)
        .set({ noteAddedAt: sql`now()` })
        .where(eq(storeDocuments.documentId, documentId));
    }
    if (doc.kind === 'invoice' && !link.metaWrittenAt) {
      // the store echoes this save back as order.updated; the intake sees the order is invoiced and does nothing
      await api.setInvoiceMeta(link.remoteOrderId, { ksefNumber: doc.ksefNumber, number: doc.number, pdfUrl: url });
      await db
        .update(storeDocuments)
        .set({ metaWrittenAt: sql`now()` })
        .where(eq(storeDocuments.documentId, documentId));
    }
  } catch (err) {
    const reason = GIVE_UP[platformOf(store).classify(err)];
    if (reason) reportFailure('store_writeback_gave_up', { storeId: store.id, accountId: store.accountId, mode: store.mode, documentId, reason });
    else reportStoreCallFailure(store, 'writeback', err, { documentId });
    await db
      .update(storeDocuments)
      .set({
        attempts: sql`${storeDocuments.attempts} + 1`,
        lastError: err instanceof Error ? err.message : String(err),
        ...(reason && { gaveUpAt: sql`now()`, gaveUpReason: reason }),
      })
      .where(eq(storeDocuments.documentId, documentId));
    if (reason) return 'gave_up';
    throw err;
  }
  await db.update(storeDocuments).set({ lastError: null }).where(eq(storeDocuments.documentId, documentId));
  return 'done';
}

/** The connected store of a scope's write-backs that gave up, newest first: the store page lists them. */
export async function writebackGiveUps(db: Db, scope: Scope, limit = 20) {
  return db
    .select({
      documentId: storeDocuments.documentId,
      number: documents.number,
      orderId: storeDocuments.remoteOrderId,
      reason: storeDocuments.gaveUpReason,
      message: storeDocuments.lastError,
      at: storeDocuments.gaveUpAt,
    })
    .from(storeDocuments)
    .innerJoin(storeConnections, eq(storeConnections.id, storeDocuments.storeId))
    .innerJoin(documents, eq(documents.id, storeDocuments.documentId))
    .where(and(...givenUpInScope(scope)))
    .orderBy(desc(storeDocuments.gaveUpAt))
    .limit(limit);
}

const givenUpInScope = (scope: Scope) => [
  eq(storeConnections.accountId, scope.accountId),
  eq(storeConnections.mode, scope.mode),
  ne(storeConnections.status, 'disconnected'),
  isNotNull(storeDocuments.gaveUpAt),
];
