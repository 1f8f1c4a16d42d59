import type { DbOrTx } from '../db/client';
import { buildCorrectionXml } from '../ksef/fa3/build-correction';
import { buildInvoiceXml } from '../ksef/fa3/build-invoice';
import type { ExchangeRate } from '../ksef/fa3/exchange-rate';
import type { Seller } from '../ksef/fa3/parts';
import { ZNormalizedOrder, ZNormalizedRefund } from '../orders/types';
import type { DocumentRow } from './document-row';
import { earlierRefunds } from './earlier-refunds';

const SYSTEM_INFO = 'KSeF Relay';

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
      issueDate: doc.issueDate,
      exchangeRate: (doc.exchangeRate as ExchangeRate | null) ?? undefined,
      systemInfo: SYSTEM_INFO,
    });
  }
  if (!original?.ksefNumber || !original.number || !original.issueDate) throw new Error(`correction ${doc.id}: original not accepted`);
  return buildCorrectionXml({
    seller,
    original: {
      order: ZNormalizedOrder.parse(original.input),
      number: original.number,
      issueDate: original.issueDate,
      ksefNumber: original.ksefNumber,
      exchangeRate: (original.exchangeRate as ExchangeRate | null) ?? undefined,
    },
    earlierRefunds: await earlierRefunds(db, original.id, doc.seq),
    refund: ZNormalizedRefund.parse(doc.input),
    number: doc.number,
    issueDate: doc.issueDate,
    systemInfo: SYSTEM_INFO,
  });
}
