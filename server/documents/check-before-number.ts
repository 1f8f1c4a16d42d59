import type { StoredError } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { buildFa3Document, type Fa3Document } from '@/server/ksef/fa3/build-document';
import { invoiceAnnotations } from '@/server/ksef/fa3/build-invoice';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import type { Seller } from '@/server/ksef/fa3/parts';
import { readAnnotations } from '@/server/ksef/fa3/read-annotations';
import { formatKsefNumber } from '@/server/ksef/ksef-number';
import { validateXml } from '@/server/ksef/xsd';
import type { NormalizedOrder, NormalizedRefund } from '@/server/orders/types';
import { documentError } from './document-errors';
import { formatNumber, periodOf, seriesOf } from './numbering';

/** number_counters.value is a PostgreSQL integer: no number of a month is longer than this one's. */
const LAST_COUNTER_VALUE = 2 ** 31 - 1;

/** The original as far as it is known when its correction is prepared: it may still wait for its own number. */
export type OriginalSoFar = {
  order: NormalizedOrder;
  number: string | null;
  issueDate: string | null;
  ksefNumber: string | null;
  exchangeRate: ExchangeRate | null;
  /** the original's FA(3) XML once built: the correction repeats its Adnotacje as issued */
  fa3Xml: string | null;
  documentId: string;
};

export type BeforeNumber = {
  seller: Seller;
  documentId: string;
  /** the Europe/Warsaw issue date the number would be taken for */
  issueDate: string;
  /** DataWytworzeniaFa; the send step writes its own time, which the schema takes just the same */
  now: Date;
} & (
  | { kind: 'invoice'; order: NormalizedOrder; exchangeRate: ExchangeRate | null }
  | { kind: 'correction'; original: OriginalSoFar; earlierRefunds: readonly NormalizedRefund[]; refund: NormalizedRefund }
);

/**
 * Everything our own code can check before a number is taken (DESIGN invariant 9): the document is built by the
 * function the send step builds it with (buildFa3Document, from server/documents/build-document-xml.ts), with the
 * longest number its series can take in place of the real one, and checked against the official FA(3) schema. What the send step builds differs
 * only in P_2, the numbering's own text (checkNumber refuses nothing it makes), in DataWytworzeniaFa and, when it is
 * sent on a later day, in P_1 (server/documents/issue-date-plan.ts), a later date of the same shape; for a correction whose
 * original is not accepted yet, the original's KSeF number (README §9 format) and, while it has none, its number,
 * issue date and NBP rate are stand-ins of the same shape. The property test (check-before-number.test.ts) holds
 * the claim: what passes here builds and passes the schema with any real number; checked-bytes-sent.db.test.ts that
 * with the real number and time these are the bytes the send step stores. Size needs no check here: the
 * intake refused what could exceed KSeF's limit with the longest seller, number and rate (server/ksef/fa3/size.ts).
 * Returns the document's `last_error`, or null when the document can be numbered.
 */
export function checkBeforeNumber(input: BeforeNumber): StoredError | null {
  let xml: string;
  try {
    xml = buildFa3Document(documentBeforeNumber(input));
  } catch (err) {
    if (err instanceof AppError) return documentError('invoice_build_failed', err.message);
    throw err;
  }
  const check = validateXml(xml, 'fa3');
  return check.ok ? null : documentError('invoice_schema_invalid', `FA(3) schema check failed: ${check.message}`);
}

/** The longest number the document's series can take in the month of its issue date. */
export const longestNumber = (input: BeforeNumber): string => formatNumber(seriesOf(input.kind), periodOf(input.issueDate), LAST_COUNTER_VALUE);

/** The document checkBeforeNumber builds: `number` in P_2 (the longest one by default) and `now` as its creation time. */
export function documentBeforeNumber(input: BeforeNumber, number = longestNumber(input)): Fa3Document {
  const { seller, documentId, issueDate, now } = input;
  const common = { seller, documentId, number, issueDate, generatedAt: now };
  if (input.kind === 'invoice') return { kind: 'invoice', ...common, order: input.order, exchangeRate: input.exchangeRate };
  return { kind: 'correction', ...common, original: originalSoFar(input), earlierRefunds: input.earlierRefunds, refund: input.refund };
}

/** A stand-in NBP rate of the longest shape FA(3) KursWaluty takes (6 + 6 digits), for an original not yet numbered. */
const STAND_IN_RATE: ExchangeRate = { rate: '999999.999999', date: '2006-01-02', table: '999/A/NBP/2006' };

/** The corrected invoice as the KOR names it, with stand-ins of the same shape for what it does not have yet. */
function originalSoFar(input: BeforeNumber & { kind: 'correction' }) {
  const { original } = input;
  const originalDate = original.issueDate ?? input.issueDate;
  return {
    order: original.order,
    number: original.number ?? formatNumber('FV', periodOf(originalDate), LAST_COUNTER_VALUE),
    issueDate: originalDate,
    ksefNumber: original.ksefNumber ?? formatKsefNumber(input.seller.nip, originalDate.replaceAll('-', ''), 'FFFFFFFFFFFF'),
    exchangeRate: original.exchangeRate ?? (original.order.currency === 'PLN' ? undefined : STAND_IN_RATE),
    // not built yet: the seller's settings as they are (either value builds alike; the send step reads the original's)
    annotations: original.fa3Xml ? readAnnotations(original.fa3Xml) : invoiceAnnotations(input.seller, original.order, null),
    documentId: original.documentId,
  };
}
