import { warsawDate } from '@/server/calendar/dates';
import { formatGrosze, formatUnitPrice } from '@/server/orders/money';
import { computeTotals } from '@/server/orders/totals';
import type { NormalizedOrder, PaymentMethod } from '@/server/orders/types';
import { describeRate, type ExchangeRate, formatRate, rateMicros, toPlnGrosze } from './exchange-rate';
import {
  adnotacje,
  type Annotations,
  bucketFields,
  buildFailed,
  checkIssueDate,
  checkNumber,
  checkSums,
  FA3_NAMESPACE,
  faWiersz,
  naglowek,
  podmiot1,
  podmiot2,
  podmiot3,
  rowId,
  type Row,
  type Seller,
  splitPayment,
} from './parts';
import { cleanText, el, opt, serializeXml, type XmlElement } from './xml';

export type InvoiceInput = {
  seller: Seller;
  order: NormalizedOrder;
  /** P_2, from the service's own series */
  number: string;
  /** base of the rows' derived UU_IDs (the document id); defaults to the number */
  documentId?: string;
  /** P_1, Europe/Warsaw calendar date */
  issueDate: string;
  issuePlace?: string;
  /** required when the order is not in PLN: NBP table A of the last working day before the tax point */
  exchangeRate?: ExchangeRate;
  systemInfo: string;
  /** DataWytworzeniaFa; defaults to now */
  generatedAt?: Date;
};

/** TFormaPlatnosci (fa3-mapping.md §12). */
const PAYMENT_FORM: Record<PaymentMethod, string> = { cash: '1', card: '2', transfer: '6', mobile: '7' };

/** The shipping row's name says what it is (fa3-mapping.md §11: "Dostawa - <method>"), unless the name already does. */
export const shippingName = (name: string): string => (/^(dostawa|wysyłka|przesyłka|transport)\b/i.test(name.trim()) ? name : `Dostawa - ${name}`);

/**
 * Gross method rows (P_9B, P_11A). One discount convention everywhere (tax-rules.md §2, art. 106e ust. 1 pkt 10):
 * P_9B is the gross unit price before the line discount and P_10 the line's gross discount, never both in one, and
 * P_11A = P_8B × P_9B − P_10. A line value that does not divide by its quantity (a shop's 7 items for 86.01) gets
 * the exact unit price, up to the 8 decimals P_9B allows (TKwotowy2: 12.28714286), not a discount nobody granted.
 */
export function invoiceRows(order: NormalizedOrder, idBase: string): Row[] {
  const lines = order.lines.map((l, i): Row => {
    const list = l.grossGrosze + l.discountGrosze;
    if (l.unitPriceGrosze !== Math.round(list / l.quantity)) throw buildFailed(`line "${l.name}": unit price ≠ (line value + discount) / quantity`);
    return {
      uuId: rowId(l.ref, idBase, i),
      name: l.name,
      sku: l.sku,
      unit: 'szt.',
      quantity: l.quantity,
      unitPrice: formatUnitPrice(list, l.quantity),
      discountGrosze: l.discountGrosze || null,
      grossGrosze: l.grossGrosze,
      rate: l.vatRate,
      annex15: l.annex15,
      before: false,
    };
  });
  const shipping = order.shipping.map((s, i): Row => ({
    uuId: rowId(s.ref, idBase, order.lines.length + i),
    name: shippingName(s.name),
    sku: null,
    unit: 'usł.',
    quantity: 1,
    unitPrice: formatGrosze(s.grossGrosze),
    discountGrosze: null,
    grossGrosze: s.grossGrosze,
    rate: s.vatRate,
    annex15: false,
    before: false,
  }));
  return [...lines, ...shipping];
}

/** Foreign currency: the rate's micros and its text, or null for PLN; a mismatch is a build failure. */
export function currencyRate(currency: string, rate: ExchangeRate | undefined): { micros: bigint; text: string; note: XmlElement } | null {
  if (currency === 'PLN') {
    if (rate) throw buildFailed('a PLN invoice takes no exchange rate');
    return null;
  }
  if (!rate) throw buildFailed(`an invoice in ${currency} needs the NBP rate of the last working day before the tax point`);
  return {
    micros: rateMicros(rate),
    text: formatRate(rate),
    note: el('DodatkowyOpis', [el('Klucz', 'Kurs waluty'), el('Wartosc', cleanText(describeRate(currency, rate)))]),
  };
}

/** Adnotacje of an invoice (and, unchanged, of its corrections): P_16 from the seller, P_18A from the order. */
export function invoiceAnnotations(seller: Seller, order: NormalizedOrder, fx: { micros: bigint } | null): Annotations {
  const total = computeTotals(order).grossGrosze;
  return { cashAccounting: seller.cashAccounting === true, splitPayment: splitPayment(order, fx ? toPlnGrosze(total, fx.micros) : total) };
}

/**
 * P_6: the delivery (or completion) date when the order gives one, else the payment date, the tax point of a prepaid
 * order (art. 19a ust. 8, fa3-mapping.md §6.1); omitted when it is the issue date (art. 106e ust. 1 pkt 6).
 */
export const supplyDate = (order: NormalizedOrder): string => order.deliveredAt ?? warsawDate(order.paidAt);

/** The FA(3) VAT invoice of a paid order (domain/fa3-mapping.md); throws invoice_build_failed when the data cannot make one. */
export function buildInvoiceXml(input: InvoiceInput): string {
  const { order } = input;
  const issueDate = checkIssueDate(input.issueDate, 'issue date');
  const taxPoint = warsawDate(order.paidAt);
  const fx = currencyRate(order.currency, input.exchangeRate);
  const rows = invoiceRows(order, input.documentId ?? input.number);
  const totals = computeTotals(order);
  if (totals.grossGrosze <= 0) throw buildFailed('the invoice total must be above zero');
  checkSums(rows, totals.buckets, totals.grossGrosze);

  const fa = el('Fa', [
    el('KodWaluty', order.currency),
    el('P_1', issueDate),
    opt('P_1M', input.issuePlace && cleanText(input.issuePlace)),
    el('P_2', checkNumber(input.number, 'invoice number')),
    supplyDate(order) !== issueDate && el('P_6', supplyDate(order)),
    ...bucketFields(totals.buckets, fx ? (b) => toPlnGrosze(b.vatGrosze, fx.micros) : undefined),
    el('P_15', formatGrosze(totals.grossGrosze)),
    adnotacje(invoiceAnnotations(input.seller, order, fx)),
    el('RodzajFaktury', 'VAT'),
    fx?.note,
    ...rows.map((row, i) => faWiersz(row, i, fx?.text ?? null)),
    el('Platnosc', [el('Zaplacono', '1'), el('DataZaplaty', taxPoint), el('FormaPlatnosci', PAYMENT_FORM[order.paymentMethod])]),
    el('WarunkiTransakcji', [
      el('Zamowienia', [opt('DataZamowienia', order.createdAt && warsawDate(order.createdAt)), el('NrZamowienia', cleanText(order.number))]),
    ]),
  ]);
  return serializeXml(
    el('Faktura', [naglowek(input.systemInfo, input.generatedAt ?? new Date()), podmiot1(input.seller), podmiot2(order.buyer), podmiot3(order.buyer), fa], {
      xmlns: FA3_NAMESPACE,
    }),
  );
}
