import { AppError } from '@/server/errors';
import type { NormalizedOrder, NormalizedRefund } from '@/server/orders/types';
import { buildFa3Document } from './build-document';
import { podmiot1, type Seller } from './parts';
import { serializeXml } from './xml';

/**
 * KSeF's size limit for an invoice without attachments, in bytes of the XML as sent. The current ksef-docs say
 * "1 MB = 1 000 000 B" (limity/limity.md, GET /limits/context maxInvoiceSizeInMB; shared/ksef/README.md §7); an
 * older page said 1 MiB (1 048 576). 1 000 000 is within both readings, so it is the limit we enforce.
 */
export const KSEF_MAX_INVOICE_BYTES = 1_000_000;

// The longest values the service could put where the order does not decide: 512 ampersands per seller text (5 bytes
// each escaped, more than any 4-byte character), as many in the e-mail and telephone as the builder takes, a number
// longer than the numbering ever makes, 50-character row-id bases, a 6-digit NBP rate.
const WIDE = '&'.repeat(512);
const WORST_SELLER: Seller = {
  nip: '5265877635',
  name: WIDE,
  address1: WIDE,
  address2: WIDE,
  email: `${'&'.repeat(127)}@${'&'.repeat(127)}`,
  phone: '&'.repeat(16),
  cashAccounting: true,
};
const WORST_NUMBER = 'X'.repeat(40);
export const WORST_ID = 'X'.repeat(50);
export const WORST_RATE = { rate: '999999.999999', date: '2049-12-31', table: `${'9'.repeat(20)}/A/NBP/2049` };
const LAST_DATE = '2050-01-01';
const WORST_TIME = new Date('2050-01-01T23:59:59Z');

const bytes = (xml: string) => Buffer.byteLength(xml, 'utf8');

// The seller's texts fill Podmiot1 alone, the same element in every invoice and correction at the same depth: the
// bounds build the order with a short seller of the same shape and add what the longest seller texts take beyond
// it, measured once (cleaning and escaping the longest seller texts was most of a build's time).
const SHORT_SELLER: Seller = { ...WORST_SELLER, name: 'S', address1: 'A', address2: 'B', email: 'e@example.pl' };
let sellerExtraBytes: number | undefined;
const worstSellerExtra = () => (sellerExtraBytes ??= bytes(serializeXml(podmiot1(WORST_SELLER))) - bytes(serializeXml(podmiot1(SHORT_SELLER))));

/**
 * An upper bound of the invoice's FA(3) size in bytes, known before a number, a seller or an exchange rate is: the
 * order built with the longest placeholders for everything else.
 */
export function invoiceSizeBound(order: NormalizedOrder): number {
  return (
    worstSellerExtra() +
    bytes(
      buildFa3Document({
        kind: 'invoice',
        seller: SHORT_SELLER,
        order,
        number: WORST_NUMBER,
        documentId: WORST_ID,
        issueDate: order.deliveredAt === LAST_DATE ? '2049-12-31' : LAST_DATE,
        exchangeRate: order.currency === 'PLN' ? null : WORST_RATE,
        generatedAt: WORST_TIME,
      }),
    )
  );
}

/** The same bound for the KOR of `refund` after `earlierRefunds`. */
export function correctionSizeBound(order: NormalizedOrder, earlierRefunds: readonly NormalizedRefund[], refund: NormalizedRefund): number {
  return (
    worstSellerExtra() +
    bytes(
      buildFa3Document({
        kind: 'correction',
        seller: SHORT_SELLER,
        original: {
          order,
          number: WORST_NUMBER,
          issueDate: '2006-01-01',
          ksefNumber: '5265877635-20260101-FFFFFFFFFFFF-FF',
          annotations: { cashAccounting: true, splitPayment: true },
          exchangeRate: order.currency === 'PLN' ? undefined : WORST_RATE,
          documentId: WORST_ID,
        },
        earlierRefunds,
        refund,
        number: WORST_NUMBER,
        documentId: WORST_ID,
        issueDate: LAST_DATE,
        generatedAt: WORST_TIME,
      }),
    )
  );
}

export const tooLarge = (param: string, size: number) =>
  new AppError(
    'order_unprocessable',
    param,
    `The FA(3) document would take up to ${size} bytes; KSeF accepts at most ${KSEF_MAX_INVOICE_BYTES}. Split the order into smaller invoices.`,
  );

/** The KOR's size check, before its number is used (the invoice's is size-estimate.ts checkInvoiceFits). */
export function checkCorrectionFits(order: NormalizedOrder, earlierRefunds: readonly NormalizedRefund[], refund: NormalizedRefund, param: string): void {
  let size: number;
  try {
    size = correctionSizeBound(order, earlierRefunds, refund);
  } catch (err) {
    if (err instanceof AppError) return;
    throw err;
  }
  if (size > KSEF_MAX_INVOICE_BYTES) throw tooLarge(param, size);
}
