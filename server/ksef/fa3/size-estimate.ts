import { AppError } from '@/server/errors';
import { computeTotals } from '@/server/orders/totals';
import { formatGrosze } from '@/server/orders/money';
import type { NormalizedBuyer, NormalizedLine, NormalizedOrder, NormalizedShipping } from '@/server/orders/types';
import { VAT_RATES, type VatRate } from '@/server/facts/vat-rates';
import { invoiceRows, shippingName } from './build-invoice';
import { formatRate, rateMicros, toPlnGrosze } from './exchange-rate';
import { bucketFields, faWiersz, podmiot2, podmiot3, rateCode, type Row } from './parts';
import { invoiceSizeBound, KSEF_MAX_INVOICE_BYTES, tooLarge, WORST_ID, WORST_RATE } from './size';
import { cleanText, el, serializeFragment, type XmlElement } from './xml';

/**
 * The intake's size check without building the document: an upper bound of invoiceSizeBound (the document with the
 * longest seller texts, number, ids and rate) summed from the order's field lengths. Only an order whose bound comes
 * within NEAR_LIMIT of KSeF's limit is built (10 lines: 7 µs of CPU, where the build took 210–230 µs).
 */

/**
 * Above this bound the document is built to decide, so that the bound's slack (a unit price's unused decimals, what
 * cleaning removes from a text) refuses no order that fits, and a slip in the arithmetic smaller than 10 % lets none
 * through that does not.
 */
const NEAR_LIMIT = KSEF_MAX_INVOICE_BYTES * 0.9;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * The most bytes `text` can take in the document as cleanText(text, max) escaped: cleaning only drops characters or
 * narrows them to a space (a lone surrogate counts 3 bytes here, 1 there), escaping widens & by 4 bytes and < > by 3,
 * and no code point takes more than 5 bytes (&amp;).
 */
export function textBytesBound(text: string, maxCodePoints: number): number {
  let extra = 0;
  if (/[&<>]/.test(text)) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x26) extra += 4;
      else if (c === 0x3c || c === 0x3e) extra += 3;
    }
  }
  return Math.min(bytes(text) + extra, maxCodePoints * 5);
}

/** Characters of formatGrosze(grosze). */
const groszeChars = (grosze: number) => (grosze < 0 ? 1 : 0) + String(Math.floor(Math.abs(grosze) / 100)).length + 3;

/**
 * Characters of a P_9B unit price of `listGrosze` over a quantity ≥ 1 (formatUnitPrice): the whole part is at most
 * that of listGrosze itself, then a dot and at most 8 decimals.
 */
const unitPriceChars = (listGrosze: number) => groszeChars(listGrosze) - 3 + 9;

/** UU_ID: the shop's row id when it fits, else `<document id>-<row>` of at most 50 characters (parts.ts rowId). */
const uuIdBytes = (ref: string | null) => (ref === null ? WORST_ID.length : Math.max(WORST_ID.length, textBytesBound(ref, 50)));

/** The bytes of `node`'s markup at `depth` without its texts: the texts below are plain, so they count 1 byte a character. */
function markupBytes(node: XmlElement, depth: number): number {
  const texts = (n: XmlElement): number => (typeof n.children === 'string' ? bytes(n.children) : n.children.reduce((s, c) => s + texts(c), 0));
  return bytes(serializeFragment(node, depth)) - texts(node);
}

const fragmentBytes = (node: XmlElement | undefined, depth: number) => (node ? bytes(serializeFragment(node, depth)) : 0);

const KURS_BYTES = bytes(formatRate(WORST_RATE));
const SZT_BYTES = bytes('szt.');
const USL_BYTES = bytes('usł.');
const WORST_MICROS = rateMicros(WORST_RATE);

/** A FaWiersz (Faktura/Fa/FaWiersz, depth 2) without its optional elements, all texts plain. */
const BARE_ROW: Row = {
  uuId: 'U',
  name: 'N',
  sku: null,
  unit: 'szt.',
  quantity: 1,
  unitPrice: '1',
  discountGrosze: null,
  grossGrosze: 1,
  rate: 23,
  annex15: false,
  before: false,
};
const rowMarkup = (row: Partial<Row>, kurs: string | null) => markupBytes(faWiersz({ ...BARE_ROW, ...row }, 0, kurs), 2);
/** Markup of a row without optional elements, and what each optional element adds (measured once on faWiersz itself). */
let markup: { row: number; sku: number; discount: number; annex15: number; kurs: number } | undefined;
const rowMarkups = () =>
  (markup ??= {
    row: rowMarkup({}, null),
    sku: rowMarkup({ sku: 'S' }, null) - rowMarkup({}, null),
    discount: rowMarkup({ discountGrosze: 1 }, null) - rowMarkup({}, null),
    annex15: rowMarkup({ annex15: true }, null) - rowMarkup({}, null),
    kurs: rowMarkup({}, 'K') - rowMarkup({}, null),
  });

/** KursWaluty, markup and text, on every row of a foreign-currency invoice. */
const kursBytes = (order: NormalizedOrder) => (order.currency === 'PLN' ? 0 : rowMarkups().kurs + KURS_BYTES);

function lineBytes(l: NormalizedLine, index: number): number {
  const m = rowMarkups();
  return (
    m.row +
    String(index + 1).length +
    uuIdBytes(l.ref) +
    textBytesBound(l.name, 512) +
    (l.sku === null ? 0 : m.sku + textBytesBound(l.sku, 50)) +
    SZT_BYTES +
    String(l.quantity).length +
    unitPriceChars(l.grossGrosze + l.discountGrosze) +
    (l.discountGrosze === 0 ? 0 : m.discount + groszeChars(l.discountGrosze)) +
    groszeChars(l.grossGrosze) +
    rateCode(l.vatRate).length +
    (l.annex15 ? m.annex15 + 1 : 0)
  );
}

const shippingBytes = (s: NormalizedShipping, index: number) =>
  rowMarkups().row +
  String(index + 1).length +
  uuIdBytes(s.ref) +
  textBytesBound(shippingName(s.name), 512) +
  USL_BYTES +
  1 +
  2 * groszeChars(s.grossGrosze) +
  rateCode(s.vatRate).length;

/** Podmiot2 (depth 1) without its optional elements, all texts plain. */
const BARE_BUYER: NormalizedBuyer = {
  nip: '5265877635',
  name: 'N',
  address1: 'A',
  address2: null,
  countryCode: 'PL',
  email: null,
  customerNumber: null,
  jst: false,
  vatGroup: false,
  recipient: null,
};
const buyerMarkup = (buyer: Partial<NormalizedBuyer>) => markupBytes(podmiot2({ ...BARE_BUYER, ...buyer }), 1);
let buyerMarkupCache: { buyer: number; address2: number; email: number; customerNumber: number } | undefined;
const buyerMarkups = () =>
  (buyerMarkupCache ??= {
    buyer: buyerMarkup({}),
    address2: buyerMarkup({ address2: 'B' }) - buyerMarkup({}),
    email: buyerMarkup({ email: 'e@e' }) - buyerMarkup({}),
    customerNumber: buyerMarkup({ customerNumber: 'C' }) - buyerMarkup({}),
  });

/** Podmiot2: markup, each optional element's when the order has its text, the texts' bounds; JST and GV 1 each. */
function buyerBytes(b: NormalizedBuyer): number {
  const m = buyerMarkups();
  return (
    m.buyer +
    bytes(b.nip) +
    textBytesBound(b.name, 512) +
    textBytesBound(b.address1, 512) +
    (b.address2 === null ? 0 : m.address2 + textBytesBound(b.address2, 512)) +
    bytes(b.countryCode) +
    (b.email === null ? 0 : m.email + textBytesBound(b.email, 255)) +
    (b.customerNumber === null ? 0 : m.customerNumber + textBytesBound(b.customerNumber, 256)) +
    2
  );
}

/** Markup of one rate's bucket fields (P_13_x, P_14_x and, in a foreign currency, P_14_xW) and of P_15. */
const bucketMarkup = (rate: VatRate, foreign: boolean) =>
  bucketFields([{ rate, netGrosze: 1, vatGrosze: 1, grossGrosze: 2 }], foreign ? () => 1 : undefined).reduce((s, f) => s + markupBytes(f, 2), 0);
let amountMarkupCache: Map<string, number> | undefined;
function amountMarkup(rate: VatRate | 'P_15', foreign: boolean): number {
  amountMarkupCache ??= new Map([
    ...VAT_RATES.flatMap((r) => [false, true].map((f): [string, number] => [`${r}/${f}`, bucketMarkup(r, f)])),
    ['P_15/false', markupBytes(el('P_15', '0'), 2)],
  ]);
  return amountMarkupCache.get(rate === 'P_15' ? 'P_15/false' : `${rate}/${foreign}`)!;
}

/**
 * The amounts of Fa from the rows' gross per rate: a bucket's net and VAT are each at most its gross (all rows are
 * at least zero), its VAT in PLN at most the gross at the worst rate; P_15 is the sum.
 */
function amountBytes(order: NormalizedOrder): number {
  const gross = new Map<VatRate, number>();
  for (const l of order.lines) gross.set(l.vatRate, (gross.get(l.vatRate) ?? 0) + l.grossGrosze);
  for (const s of order.shipping) gross.set(s.vatRate, (gross.get(s.vatRate) ?? 0) + s.grossGrosze);
  const foreign = order.currency !== 'PLN';
  let size = amountMarkup('P_15', false);
  let total = 0;
  for (const [rate, g] of gross) {
    total += g;
    size += amountMarkup(rate, foreign) + groszeChars(g);
    if (rate !== 0) size += groszeChars(g) + (foreign ? groszeChars(toPlnGrosze(g, WORST_MICROS)) : 0);
  }
  return size + groszeChars(total);
}

/** The parts of the document that follow the order; everything else is the same for every order of its shape. */
const orderParts = (order: NormalizedOrder) =>
  buyerBytes(order.buyer) + fragmentBytes(podmiot3(order.buyer), 1) + amountBytes(order) + textBytesBound(order.number, 256);

/** The same parts of a built document exactly, for measuring what the rest takes. */
function exactOrderParts(order: NormalizedOrder): number {
  const totals = computeTotals(order);
  const fields = bucketFields(totals.buckets, order.currency === 'PLN' ? undefined : (b) => toPlnGrosze(b.vatGrosze, WORST_MICROS));
  return (
    fragmentBytes(podmiot2(order.buyer), 1) +
    fragmentBytes(podmiot3(order.buyer), 1) +
    [...fields, el('P_15', formatGrosze(totals.grossGrosze))].reduce((s, f) => s + fragmentBytes(f, 2), 0) +
    bytes(cleanText(order.number))
  );
}

/**
 * An order of one plain line with every optional part an order can bring but DataZamowienia and a foreign
 * currency's rate note, which `dated` and `foreign` add: its worst document less its order parts and its row is what
 * every order of that kind has besides them.
 */
function template(foreign: boolean, dated: boolean): NormalizedOrder {
  return {
    externalId: 'T',
    number: 'T',
    createdAt: dated ? '2026-01-01T00:00:00.000Z' : null,
    paidAt: '2026-01-01T00:00:00.000Z',
    // P_6 is there unless the supply date is the issue date, which the worst document's issue date never is
    deliveredAt: '2026-01-01',
    currency: foreign ? 'EUR' : 'PLN',
    paymentMethod: 'card',
    buyer: {
      nip: '5265877635',
      name: 'B',
      address1: 'A',
      address2: 'B',
      countryCode: 'PL',
      email: 'b@b.pl',
      customerNumber: 'C',
      jst: true,
      vatGroup: false,
      recipient: { nip: '5265877635', name: 'R', address1: 'A', address2: 'B' },
    },
    lines: [{ ref: null, name: 'N', sku: null, quantity: 1, unitPriceGrosze: 100, discountGrosze: 0, grossGrosze: 100, vatRate: 23, annex15: false }],
    shipping: [],
  };
}
const fixed = new Map<string, number>();
function fixedBytes(order: NormalizedOrder): number {
  const foreign = order.currency !== 'PLN';
  const dated = order.createdAt !== null;
  const key = `${foreign}/${dated}`;
  let size = fixed.get(key);
  if (size === undefined) {
    const t = template(foreign, dated);
    const [row] = invoiceRows(t, WORST_ID);
    size = invoiceSizeBound(t) - exactOrderParts(t) - fragmentBytes(faWiersz(row!, 0, foreign ? formatRate(WORST_RATE) : null), 2);
    fixed.set(key, size);
  }
  return size;
}

/**
 * An upper bound of invoiceSizeBound(order) in bytes, from field lengths (server/ksef/fa3/size-estimate.property.test.ts
 * draws orders against it). Throws invoice_build_failed where the builder would (an invalid buyer NIP).
 */
export function invoiceSizeEstimate(order: NormalizedOrder): number {
  let size = fixedBytes(order) + orderParts(order) + (order.lines.length + order.shipping.length) * kursBytes(order);
  for (let i = 0; i < order.lines.length; i++) size += lineBytes(order.lines[i]!, i);
  for (let i = 0; i < order.shipping.length; i++) size += shippingBytes(order.shipping[i]!, order.lines.length + i);
  return size;
}

/**
 * What KSeF would refuse for its size (21402 in an online session, after the number is used) is refused at the API:
 * order_unprocessable with `param` at the lines. Any other build failure is left to the queue, which reports it.
 */
export function checkInvoiceFits(order: NormalizedOrder, param: string): void {
  let size: number;
  try {
    if (invoiceSizeEstimate(order) <= NEAR_LIMIT) return;
    size = invoiceSizeBound(order);
  } catch (err) {
    if (err instanceof AppError) return;
    throw err;
  }
  if (size > KSEF_MAX_INVOICE_BYTES) throw tooLarge(param, size);
}
