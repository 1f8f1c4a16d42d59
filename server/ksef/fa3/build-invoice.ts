import { warsawDate } from '../../orders/dates';
import { formatGrosze, formatGroszeQuotient } from '../../orders/money';
import { computeTotals } from '../../orders/totals';
import type { NormalizedOrder, PaymentMethod } from '../../orders/types';
import { describeRate, type ExchangeRate, formatRate, rateMicros, toPlnGrosze } from './exchange-rate';
import {
  adnotacje, bucketFields, buildFailed, checkIssueDate, checkNumber, checkSums, FA3_NAMESPACE, faWiersz, naglowek, podmiot1, podmiot2, type Row, type Seller,
} from './parts';
import { cleanText, el, opt, serializeXml, type XmlElement } from './xml';

export type InvoiceInput = {
  seller: Seller;
  order: NormalizedOrder;
  /** P_2, from the service's own series */
  number: string;
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

/**
 * Gross method rows (P_9B, P_11A). A discount goes into the unit price when that price is exact within
 * TKwotowy2's 8 decimals (the preferred encoding, fa3-mapping.md §11), else P_9B is the undiscounted price and P_10 the discount.
 */
export function invoiceRows(order: NormalizedOrder): Row[] {
  const lines = order.lines.map((l): Row => {
    if (l.quantity * l.unitPriceGrosze - l.discountGrosze !== l.grossGrosze) throw buildFailed(`line "${l.name}": quantity × unit price − discount ≠ line value`);
    const discounted = l.discountGrosze === 0 ? formatGrosze(l.unitPriceGrosze) : formatGroszeQuotient(l.grossGrosze, l.quantity);
    return {
      ref: l.ref, name: l.name, sku: l.sku, unit: 'szt.', quantity: l.quantity,
      unitPrice: discounted ?? formatGrosze(l.unitPriceGrosze),
      discountGrosze: discounted === null ? l.discountGrosze : null,
      grossGrosze: l.grossGrosze, rate: l.vatRate,
    };
  });
  const shipping = order.shipping.map((s): Row => ({
    ref: s.ref, name: s.name, sku: null, unit: 'usł.', quantity: 1, unitPrice: formatGrosze(s.grossGrosze), discountGrosze: null, grossGrosze: s.grossGrosze, rate: s.vatRate,
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

/** The FA(3) VAT invoice of a paid order (domain/fa3-mapping.md); throws invoice_build_failed when the data cannot make one. */
export function buildInvoiceXml(input: InvoiceInput): string {
  const { order } = input;
  const issueDate = checkIssueDate(input.issueDate, 'issue date');
  const taxPoint = warsawDate(order.paidAt);
  const fx = currencyRate(order.currency, input.exchangeRate);
  const rows = invoiceRows(order);
  const totals = computeTotals(order);
  if (totals.grossGrosze <= 0) throw buildFailed('the invoice total must be above zero');
  checkSums(rows, totals.buckets, totals.grossGrosze);

  const fa = el('Fa', [
    el('KodWaluty', order.currency),
    el('P_1', issueDate),
    opt('P_1M', input.issuePlace && cleanText(input.issuePlace)),
    el('P_2', checkNumber(input.number, 'invoice number')),
    taxPoint !== issueDate && el('P_6', taxPoint), // the payment date is the tax point of a prepaid order (fa3-mapping.md §6.1)
    ...bucketFields(totals.buckets, fx ? (b) => toPlnGrosze(b.vatGrosze, fx.micros) : undefined),
    el('P_15', formatGrosze(totals.grossGrosze)),
    adnotacje(),
    el('RodzajFaktury', 'VAT'),
    fx?.note,
    ...rows.map((row, i) => faWiersz(row, i, fx?.text ?? null)),
    el('Platnosc', [el('Zaplacono', '1'), el('DataZaplaty', taxPoint), el('FormaPlatnosci', PAYMENT_FORM[order.paymentMethod])]),
    el('WarunkiTransakcji', [
      el('Zamowienia', [opt('DataZamowienia', order.createdAt && warsawDate(order.createdAt)), el('NrZamowienia', cleanText(order.number))]),
    ]),
  ]);
  return serializeXml(el('Faktura', [naglowek(input.systemInfo, input.generatedAt ?? new Date()), podmiot1(input.seller), podmiot2(order.buyer), fa], { xmlns: FA3_NAMESPACE }));
}
