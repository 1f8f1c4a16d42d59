import type { DocumentRow } from '../documents/document-row';
import { rateMicros, toPlnGrosze, type ExchangeRate } from '../ksef/fa3/exchange-rate';
import type { Seller } from '../ksef/fa3/parts';
import { kodIUrl } from '../ksef/qr';
import { warsawDate } from '../orders/dates';
import { computeCorrection, computeTotals, type CorrectionBucket } from '../orders/totals';
import {
  ZNormalizedOrder,
  ZNormalizedRefund,
  type NormalizedBuyer,
  type NormalizedLine,
  type NormalizedRefund,
  type NormalizedShipping,
  type PaymentMethod,
} from '../orders/types';
import type { RateTotals } from '../orders/vat';
import type { IssuedFacts } from './issued-facts';
import type { TDocumentView, TPartyView, TRowView, TVatSummaryView } from './view-model';

export type DocumentViewInput = {
  /** Accepted: numbered, with its KSeF number and the FA(3) XML as sent. */
  doc: DocumentRow;
  issued: IssuedFacts;
  /** A correction's invoice, accepted. */
  original?: DocumentRow | null;
  /** Refunds corrected on that invoice before this correction, oldest first (as the XML was built). */
  earlierRefunds?: readonly NormalizedRefund[];
};

/** Printed payment forms of FA(3) FormaPlatnosci 2, 6, 1, 7 (fa3-mapping.md §12). */
const PAYMENT_FORM: Record<PaymentMethod, string> = { card: 'Karta', transfer: 'Przelew', cash: 'Gotówka', mobile: 'Płatność mobilna' };

/**
 * The PDF view of an accepted invoice or correction, from the same order maths the FA(3) builder used, so the
 * printout and the e-invoice agree; KOD I hashes the stored XML bytes.
 */
export function buildDocumentView({ doc, issued, original, earlierRefunds = [] }: DocumentViewInput): TDocumentView {
  if (!doc.number || !doc.issueDate || !doc.fa3Xml) throw new Error(`document ${doc.id} has no number, issue date or XML yet`);
  const common = {
    number: doc.number,
    ksefNumber: doc.ksefNumber,
    issueDate: doc.issueDate,
    ...(issued.issuePlace && { issuePlace: issued.issuePlace }),
    seller: sellerView(issued.seller),
    qr: { url: kodIUrl({ environment: doc.ksefEnvironment, sellerNip: issued.seller.nip, issueDate: doc.issueDate, xml: doc.fa3Xml }) },
  };
  if (doc.kind === 'invoice') {
    const order = ZNormalizedOrder.parse(doc.input);
    const rate = (doc.exchangeRate as ExchangeRate | null) ?? undefined;
    const totals = computeTotals(order);
    const taxPoint = warsawDate(order.paidAt);
    return {
      ...common,
      kind: 'invoice',
      // printed only when it differs, as P_6 is written only then
      ...(taxPoint !== doc.issueDate && { taxPointDate: taxPoint }),
      currency: order.currency,
      buyer: buyerView(order.buyer),
      rows: [...order.lines.map(lineRow), ...order.shipping.map(shippingRow)],
      vatSummary: totals.buckets.map((b) => summaryRow(b, rate && ((x: RateTotals) => toPlnGrosze(x.vatGrosze, rateMicros(rate))))),
      ...(rate && { exchangeRate: rate }),
      payment: { form: PAYMENT_FORM[order.paymentMethod], paid: true, date: taxPoint },
      totals: { netGrosze: totals.netGrosze, vatGrosze: totals.vatGrosze, grossGrosze: totals.grossGrosze },
    };
  }
  if (!original?.number || !original.issueDate || !original.ksefNumber) throw new Error(`correction ${doc.id}: its invoice is not accepted`);
  if (!issued.correctionReason) throw new Error(`correction ${doc.id}: the XML has no PrzyczynaKorekty`);
  const order = ZNormalizedOrder.parse(original.input);
  // a correction converts at its invoice's rate (art. 31a ust. 2a), as the KOR builder does
  const rate = (original.exchangeRate as ExchangeRate | null) ?? undefined;
  const c = computeCorrection(order, earlierRefunds, ZNormalizedRefund.parse(doc.input));
  // ΔW per rate is the difference of the converted cumulative VAT, never the converted difference (kor-mapping.md §6)
  const vatPln = rate && ((b: CorrectionBucket) => toPlnGrosze(b.after.vatGrosze, rateMicros(rate)) - toPlnGrosze(b.before.vatGrosze, rateMicros(rate)));
  return {
    ...common,
    kind: 'correction',
    currency: order.currency,
    buyer: buyerView(order.buyer),
    rows: c.rows.map(
      (r): TRowView => ({
        name: r.name,
        ...(r.sku && { sku: r.sku }),
        quantity: String(r.quantity),
        unit: r.kind === 'shipping' ? 'usł.' : 'szt.',
        unitGrossGrosze: r.unitPriceGrosze,
        discountGrosze: 0,
        vatRate: r.vatRate,
        grossGrosze: r.grossGrosze,
      }),
    ),
    vatSummary: c.buckets.map((b) => summaryRow(b, vatPln)),
    ...(rate && { exchangeRate: rate }),
    correction: {
      originalNumber: original.number,
      originalIssueDate: original.issueDate,
      originalKsefNumber: original.ksefNumber,
      reason: issued.correctionReason,
    },
    totals: { netGrosze: c.netGrosze, vatGrosze: c.vatGrosze, grossGrosze: c.grossGrosze },
  };
}

function sellerView(s: Seller): TPartyView {
  return {
    name: s.name,
    nip: s.nip,
    addressLines: [s.address1, s.address2].filter((l): l is string => !!l),
    ...(s.countryCode && { countryCode: s.countryCode }),
    ...(s.email && { email: s.email }),
    ...(s.phone && { phone: s.phone }),
  };
}

function buyerView(b: NormalizedBuyer): TPartyView {
  return {
    name: b.name,
    nip: b.nip,
    addressLines: [b.address1, b.address2].filter((l): l is string => !!l),
    countryCode: b.countryCode,
    ...(b.email && { email: b.email }),
  };
}

/**
 * The XML folds a line discount into the unit price whenever that price is exact to 8 decimals (fa3-mapping.md §11);
 * the view holds whole grosze, so it folds only when the discounted price is whole grosze and else prints the
 * undiscounted price with the discount beside it. Both read to the same line value.
 */
function lineRow(l: NormalizedLine): TRowView {
  const folded = l.grossGrosze % l.quantity === 0;
  return {
    name: l.name,
    ...(l.sku && { sku: l.sku }),
    quantity: String(l.quantity),
    unit: 'szt.',
    unitGrossGrosze: folded ? l.grossGrosze / l.quantity : l.unitPriceGrosze,
    discountGrosze: folded ? 0 : l.discountGrosze,
    vatRate: l.vatRate,
    grossGrosze: l.grossGrosze,
  };
}

const shippingRow = (s: NormalizedShipping): TRowView => ({
  name: s.name,
  quantity: '1',
  unit: 'usł.',
  unitGrossGrosze: s.grossGrosze,
  discountGrosze: 0,
  vatRate: s.vatRate,
  grossGrosze: s.grossGrosze,
});

function summaryRow<B extends RateTotals>(b: B, vatPln?: (b: B) => number): TVatSummaryView {
  return {
    rate: b.rate,
    netGrosze: b.netGrosze,
    vatGrosze: b.vatGrosze,
    grossGrosze: b.grossGrosze,
    ...(vatPln && { vatPlnGrosze: vatPln(b) }),
  };
}
