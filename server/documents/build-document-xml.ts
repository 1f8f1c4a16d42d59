import type { DbOrTx } from '@/server/db/client';
import { buildFa3Document, type Fa3Document } from '@/server/ksef/fa3/build-document';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import type { Seller } from '@/server/ksef/fa3/parts';
import { readAnnotations } from '@/server/ksef/fa3/read-annotations';
import { ZNormalizedOrder, ZNormalizedRefund } from '@/server/orders/types';
import type { DocumentRow } from './document-row';
import { earlierRefunds } from './earlier-refunds';

/**
 * The FA(3) XML of a numbered document. Built once and stored before sending, so a retry sends the same
 * bytes (invariant 4) and the KOD I hash matches what KSeF has.
 */
export async function buildDocumentXml(db: DbOrTx, doc: DocumentRow, seller: Seller, original: DocumentRow | null): Promise<string> {
  return buildFa3Document(await documentToSend(db, doc, seller, original));
}

/** What the send step builds a numbered document from: its row, and for a correction its accepted original's. */
export async function documentToSend(db: DbOrTx, doc: DocumentRow, seller: Seller, original: DocumentRow | null): Promise<Fa3Document> {
  if (!doc.number || !doc.issueDate) throw new Error(`document ${doc.id} is not numbered`);
  const numbered = { seller, number: doc.number, documentId: doc.id, issueDate: doc.issueDate };
  if (doc.kind === 'invoice') {
    return { kind: 'invoice', ...numbered, order: ZNormalizedOrder.parse(doc.input), exchangeRate: (doc.exchangeRate as ExchangeRate | null) ?? null };
  }
  if (!original?.ksefNumber || !original.number || !original.issueDate || !original.fa3Xml) throw new Error(`correction ${doc.id}: original not accepted`);
  return {
    kind: 'correction',
    ...numbered,
    original: {
      order: ZNormalizedOrder.parse(original.input),
      number: original.number,
      issueDate: original.issueDate,
      ksefNumber: original.ksefNumber,
      exchangeRate: (original.exchangeRate as ExchangeRate | null) ?? undefined,
      annotations: readAnnotations(original.fa3Xml),
      documentId: original.id,
    },
    earlierRefunds: await earlierRefunds(db, original.id, doc.seq),
    refund: ZNormalizedRefund.parse(doc.input),
  };
}
