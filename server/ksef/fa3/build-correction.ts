import { AppError } from '../../errors';
import { formatGrosze } from '../../orders/money';
import { computeCorrection } from '../../orders/totals';
import type { NormalizedOrder, NormalizedRefund } from '../../orders/types';
import type { ExchangeRate } from './exchange-rate';
import { toPlnGrosze } from './exchange-rate';
import { currencyRate } from './build-invoice';
import {
  adnotacje, bucketFields, buildFailed, checkIssueDate, checkNumber, checkSums, FA3_NAMESPACE, faWiersz, naglowek, podmiot1, podmiot2, type Row, type Seller,
} from './parts';
import { cleanText, el, opt, serializeXml } from './xml';

export type CorrectionInput = {
  seller: Seller;
  /** the corrected VAT invoice as accepted by KSeF */
  original: { order: NormalizedOrder; number: string; issueDate: string; ksefNumber: string; exchangeRate?: ExchangeRate };
  /** corrections of the same invoice issued before this one, oldest first */
  earlierRefunds?: readonly NormalizedRefund[];
  refund: NormalizedRefund;
  /** P_2 of the KOR, from its own series */
  number: string;
  issueDate: string;
  issuePlace?: string;
  systemInfo: string;
  generatedAt?: Date;
};

const KSEF_NUMBER = /^\d{10}-\d{8}-[0-9A-F]{6}-?[0-9A-F]{6}-[0-9A-F]{2}$/;

function defaultReason(refund: NormalizedRefund): string {
  if (refund.lines.length === 0) return 'Zwrot kosztów dostawy';
  return refund.shippingGrosze === null ? 'Zwrot towaru' : 'Zwrot towaru i kosztów dostawy';
}

/**
 * The FA(3) KOR of a refund (domain/kor-mapping.md): TypKorekty 2, the original's KSeF number, difference rows
 * with negative quantities and per-rate differences of the cumulative buckets. A foreign-currency correction
 * converts at the original's rate (art. 31a ust. 2a). order_unprocessable from the refund maths becomes invoice_build_failed.
 */
export function buildCorrectionXml(input: CorrectionInput): string {
  const { original, refund } = input;
  const issueDate = checkIssueDate(input.issueDate, 'correction issue date');
  checkIssueDate(original.issueDate, 'original issue date');
  if (issueDate < original.issueDate) throw buildFailed(`the correction date ${issueDate} is before the invoice date ${original.issueDate}`);
  if (!KSEF_NUMBER.test(original.ksefNumber)) throw buildFailed(`"${original.ksefNumber}" is not a KSeF number`);
  const fx = currencyRate(original.order.currency, original.exchangeRate);

  let correction;
  try {
    correction = computeCorrection(original.order, input.earlierRefunds ?? [], refund);
  } catch (err) {
    throw err instanceof AppError ? buildFailed(err.message) : err;
  }
  const rows = correction.rows.map((r): Row => ({
    ref: r.ref, name: r.name, sku: r.sku, unit: r.kind === 'shipping' ? 'usł.' : 'szt.', quantity: r.quantity,
    unitPrice: formatGrosze(r.unitPriceGrosze), discountGrosze: null, grossGrosze: r.grossGrosze, rate: r.vatRate,
  }));
  checkSums(rows, correction.buckets, correction.grossGrosze);
  const byRate = new Map(correction.buckets.map((b) => [b.rate, b]));
  // ΔW = round2(V_after × rate) − round2(V_before × rate), so the PLN VAT never drifts across corrections (kor-mapping.md §6)
  const vatPln = fx
    ? (b: { rate: 23 | 8 | 5 | 0 }) => {
        const full = byRate.get(b.rate);
        if (!full) throw buildFailed(`no bucket for ${b.rate} %`);
        return toPlnGrosze(full.after.vatGrosze, fx.micros) - toPlnGrosze(full.before.vatGrosze, fx.micros);
      }
    : undefined;

  const fa = el('Fa', [
    el('KodWaluty', original.order.currency),
    el('P_1', issueDate),
    opt('P_1M', input.issuePlace && cleanText(input.issuePlace)),
    el('P_2', checkNumber(input.number, 'correction number')),
    ...bucketFields(correction.buckets, vatPln),
    el('P_15', formatGrosze(correction.grossGrosze)),
    adnotacje(),
    el('RodzajFaktury', 'KOR'),
    el('PrzyczynaKorekty', cleanText(refund.reason ?? '') || defaultReason(refund)),
    el('TypKorekty', '2'), // takes effect at the KOR's date: returns and refunds
    el('DaneFaKorygowanej', [
      el('DataWystFaKorygowanej', original.issueDate),
      el('NrFaKorygowanej', checkNumber(original.number, 'original invoice number')),
      el('NrKSeF', '1'),
      el('NrKSeFFaKorygowanej', original.ksefNumber),
    ]),
    fx?.note,
    ...rows.map((row, i) => faWiersz(row, i, fx?.text ?? null)),
  ]);
  return serializeXml(el('Faktura', [naglowek(input.systemInfo, input.generatedAt ?? new Date()), podmiot1(input.seller), podmiot2(original.order.buyer), fa], { xmlns: FA3_NAMESPACE }));
}
