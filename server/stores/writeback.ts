import { eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { documents, storeDocuments } from '@/server/db/schema';
import { pdfUrl } from '@/server/documents/serialize-document';
import { randomToken } from '@/server/ids';
import { findStore, reportStoreCallFailure, storeClient } from './store-row';
import { loadDocument } from '@/server/documents/load-document';

export type WritebackText = { kind: 'invoice' | 'correction'; number: string; ksefNumber: string; pdfUrl: string; invoiceNumber?: string | null };

/** The order note (Polish: the shop's buyers read it in their account and in WooCommerce's note e-mail). */
export function writebackNote(t: WritebackText): string {
  const what = t.kind === 'invoice' ? `Faktura ${t.number}` : `Faktura korygująca ${t.number}${t.invoiceNumber ? ` do faktury ${t.invoiceNumber}` : ''}`;
  return `${what} została wystawiona w KSeF (numer KSeF: ${t.ksefNumber}). PDF: ${t.pdfUrl}`;
}

/**
 * After a store document is accepted: an order note with the number, KSeF number and pdf_url (a customer note when
 * the store setting says so) and, for the invoice, order meta _ksef_number, _ksef_invoice_number, _ksef_pdf_url.
 * Each step is remembered, so a retry does not add the note twice. Failures throw for the job to retry and never
 * touch the document. The PDF link's token is fixed now (the PDF renderer keeps an existing one), so the link in
 * the note works as soon as the PDF is rendered.
 */
export async function writeBackDocument(db: Db, documentId: string): Promise<'done' | 'skipped'> {
  const [link] = await db.select().from(storeDocuments).where(eq(storeDocuments.documentId, documentId));
  if (!link) return 'skipped';
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
  const client = storeClient(store);
  try {
    if (!link.noteAddedAt) {
      await client.addNote(
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
      await client.setMeta(link.remoteOrderId, { _ksef_number: doc.ksefNumber, _ksef_invoice_number: doc.number, _ksef_pdf_url: url });
      await db
        .update(storeDocuments)
        .set({ metaWrittenAt: sql`now()` })
        .where(eq(storeDocuments.documentId, documentId));
    }
  } catch (err) {
    reportStoreCallFailure(store, 'writeback', err, { documentId });
    await db
      .update(storeDocuments)
      .set({ attempts: sql`${storeDocuments.attempts} + 1`, lastError: err instanceof Error ? err.message : String(err) })
      .where(eq(storeDocuments.documentId, documentId));
    throw err;
  }
  await db.update(storeDocuments).set({ lastError: null }).where(eq(storeDocuments.documentId, documentId));
  return 'done';
}
