import type { NormalizedOrder, NormalizedRefund } from '@/server/orders/types';
import { buildCorrectionXml, type CorrectionInput } from './build-correction';
import { buildInvoiceXml } from './build-invoice';
import type { ExchangeRate } from './exchange-rate';
import type { Seller } from './parts';

/** `SystemInfo` of every document the service builds. */
export const SYSTEM_INFO = 'KSeF Relay';

/** What a document's FA(3) is built from: a VAT invoice of an order, or the KOR of a refund. */
export type Fa3Document = {
  seller: Seller;
  /** base of the rows' derived UU_IDs */
  documentId: string;
  /** P_2 */
  number: string;
  /** P_1, Europe/Warsaw calendar date */
  issueDate: string;
  /** DataWytworzeniaFa; now when absent */
  generatedAt?: Date;
} & (
  | { kind: 'invoice'; order: NormalizedOrder; exchangeRate: ExchangeRate | null }
  | { kind: 'correction'; original: CorrectionInput['original']; earlierRefunds: readonly NormalizedRefund[]; refund: NormalizedRefund }
);

/**
 * The one way a document's FA(3) XML is built: the send step (server/documents/build-document-xml.ts), the check
 * before its number is taken (server/documents/check-before-number.ts) and the intake's size bounds (size.ts) all
 * call it, so what is checked is built by the same code, with the same SystemInfo, as what is sent.
 */
export function buildFa3Document(doc: Fa3Document): string {
  const { seller, documentId, number, issueDate, generatedAt } = doc;
  const common = { seller, documentId, number, issueDate, systemInfo: SYSTEM_INFO, ...(generatedAt && { generatedAt }) };
  if (doc.kind === 'invoice') return buildInvoiceXml({ ...common, order: doc.order, exchangeRate: doc.exchangeRate ?? undefined });
  return buildCorrectionXml({ ...common, original: doc.original, earlierRefunds: doc.earlierRefunds, refund: doc.refund });
}
