import type { DbOrTx } from '@/server/db/client';
import { buildCorrectionXml } from '@/server/ksef/fa3/build-correction';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import type { Seller } from '@/server/ksef/fa3/parts';
import { readAnnotations } from '@/server/ksef/fa3/read-annotations';
import { SYSTEM_INFO } from '@/server/ksef/fa3/size';
import { ZNormalizedOrder, ZNormalizedRefund } from '@/server/orders/types';
import type { DocumentRow } from './document-row';
import { earlierRefunds } from './earlier-refunds';

/**
 * The FA(3) XML of a numbered document. Built once and stored before sending, so a retry sends the same
 * bytes (invariant 4) and the KOD I hash matches what KSeF has.
 */
export async function buildDocumentXml(db: DbOrTx, doc: DocumentRow, seller: Seller, original: DocumentRow | null): Promise<string> {
  if (!doc.number || !doc.issueDate) throw new Error(`document ${doc.id} is not numbered`);
  if (doc.kind === 'invoice') {
    return buildInvoiceXml({
      seller,
      order: ZNormalizedOrder.parse(doc.input),
      number: doc.number,
      documentId: doc.id,
      issueDate: doc.issueDate,
      exchangeRate: (doc.exchangeRate as ExchangeRate | null) ?? undefined,
      systemInfo: SYSTEM_INFO,
    });
  }
  if (!original?.ksefNumber || !original.number || !original.issueDate || !original.fa3Xml) throw new Error(`correction ${doc.id}: original not accepted`);
  return buildCorrectionXml({
    seller,
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
    number: doc.number,
    documentId: doc.id,
    issueDate: doc.issueDate,
    systemInfo: SYSTEM_INFO,
  });
}
