import { AppError } from '@/server/errors';
import { formatGrosze } from '@/server/orders/money';
import { type CorrectionChange, computeCorrection, rowDelta } from '@/server/orders/totals';
import type { NormalizedOrder, NormalizedRefund } from '@/server/orders/types';
import type { VatRate } from '@/server/facts/vat-rates';
import type { ExchangeRate } from './exchange-rate';
import { toPlnGrosze } from './exchange-rate';
import { currencyRate, invoiceRows, shippingName } from './build-invoice';
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
} from './parts';
import { cleanText, el, opt, serializeXml } from './xml';

export type CorrectionInput = {
  seller: Seller;
  /** the corrected VAT invoice as accepted by KSeF */
  original: {
    order: NormalizedOrder;
    number: string;
    issueDate: string;
    ksefNumber: string;
    exchangeRate?: ExchangeRate;
    /** its Adnotacje as issued (readAnnotations): a correction repeats them, not the seller's current settings */
    annotations: Annotations;
    /** base of the invoice rows' derived UU_IDs, as given when it was built; defaults to its number */
    documentId?: string;
  };
  /** corrections of the same invoice issued before this one, oldest first */
  earlierRefunds?: readonly NormalizedRefund[];
  refund: NormalizedRefund;
  /** P_2 of the KOR, from its own series */
  number: string;
  /** base of the KOR rows' derived UU_IDs (the correction's document id); defaults to its number */
  documentId?: string;
  issueDate: string;
  issuePlace?: string;
  systemInfo: string;
  generatedAt?: Date;
};

const KSEF_NUMBER = /^\d{10}-\d{8}-[0-9A-F]{6}-?[0-9A-F]{6}-[0-9A-F]{2}$/;

/**
 * PrzyczynaKorekty when the refund gives none, named for what happened: goods or shipping came back (art. 29a ust. 10
 * pkt 3, "zwrot") or their price fell after the sale (pkt 1, "obniżka ceny"). E.g. "Zwrot towaru i kosztów dostawy".
 */
export function defaultReason(changes: readonly CorrectionChange[]): string {
  const what = (change: CorrectionChange['change']) =>
    [
      changes.some((c) => c.change === change && c.kind === 'line') && (change === 'return' ? 'towaru' : 'ceny towaru'),
      changes.some((c) => c.change === change && c.kind === 'shipping') && 'kosztów dostawy',
    ].filter((x): x is string => !!x);
  const parts = [
    what('return').length > 0 && `zwrot ${what('return').join(' i ')}`,
    what('reduce').length > 0 && `obniżka ${what('reduce').join(' i ')}`,
    changes.some((c) => c.change === 'fee') && 'potrącona opłata za przyjęcie zwrotu',
  ].filter((x): x is string => !!x);
  const text = parts.join('; ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

type Correction = ReturnType<typeof computeCorrection>;

/** The KOR's rows, each with a UU_ID made from its refund line's ref (or the document and its index). */
function correctionRows(correction: Correction, idBase: string): Row[] {
  return correction.rows.map((r, i): Row => ({
    uuId: rowId(r.ref, idBase, i),
    name: r.kind === 'shipping' ? shippingName(r.name) : r.name,
    sku: r.sku,
    unit: r.kind === 'line' ? 'szt.' : 'usł.',
    quantity: r.quantity,
    unitPrice: r.unitPrice,
    discountGrosze: r.discountGrosze || null,
    grossGrosze: r.grossGrosze,
    rate: r.vatRate,
    annex15: r.annex15,
    before: r.state === 'before',
  }));
}

/** One DodatkowyOpis per corrected invoice row, on its first KOR row, naming that row (tax-rules.md §1.5). */
function invoiceRowLinks(correction: Correction, original: CorrectionInput['original']) {
  const invoiceIds = invoiceRows(original.order, original.documentId ?? original.number).map((r) => r.uuId);
  return correction.rows.flatMap((r, i) =>
    r.state === 'after' || r.kind === 'fee'
      ? []
      : [
          el('DodatkowyOpis', [
            el('NrWiersza', i + 1),
            el('Klucz', 'Pozycja faktury korygowanej'),
            el('Wartosc', cleanText(`${original.number} poz. ${r.invoiceRow + 1}, UU_ID ${invoiceIds[r.invoiceRow]}`)),
          ]),
        ],
  );
}

/**
 * The FA(3) KOR of a refund (domain/kor-mapping.md): TypKorekty 2, the original's KSeF number, rows that take the
 * invoice row's unit price (difference rows with negative quantities for returns; before/after rows with StanPrzed
 * when a price is reduced, see computeCorrection) and per-rate differences of the cumulative buckets. Each KOR row
 * names the invoice row it corrects in DodatkowyOpis (number and UU_ID; FA(3) has no row-link element). A
 * foreign-currency correction converts at the original's rate (art. 31b ust. 1 of the VAT act). Adnotacje are the
 * original's as issued (kor-mapping.md §2). order_unprocessable from the refund maths becomes invoice_build_failed.
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
  const rows = correctionRows(correction, input.documentId ?? input.number);
  checkSums(
    rows.map((r, i) => ({ rate: r.rate, grossGrosze: rowDelta(correction.rows[i]!) })),
    correction.buckets,
    correction.grossGrosze,
  );
  const links = invoiceRowLinks(correction, original);
  const byRate = new Map(correction.buckets.map((b) => [b.rate, b]));
  // ΔW = round2(V_after × rate) − round2(V_before × rate), so the PLN VAT never drifts across corrections (kor-mapping.md §6)
  const vatPln = fx
    ? (b: { rate: VatRate }) => {
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
    adnotacje(original.annotations),
    el('RodzajFaktury', 'KOR'),
    el('PrzyczynaKorekty', cleanText(refund.reason ?? '') || defaultReason(correction.changes)),
    el('TypKorekty', '2'), // takes effect at the KOR's date: returns and refunds
    el('DaneFaKorygowanej', [
      el('DataWystFaKorygowanej', original.issueDate),
      el('NrFaKorygowanej', checkNumber(original.number, 'original invoice number')),
      el('NrKSeF', '1'),
      el('NrKSeFFaKorygowanej', original.ksefNumber),
    ]),
    fx?.note,
    ...links,
    ...rows.map((row, i) => faWiersz(row, i, fx?.text ?? null)),
  ]);
  const buyer = original.order.buyer;
  return serializeXml(
    el('Faktura', [naglowek(input.systemInfo, input.generatedAt ?? new Date()), podmiot1(input.seller), podmiot2(buyer), podmiot3(buyer), fa], {
      xmlns: FA3_NAMESPACE,
    }),
  );
}
