import { AppError } from '@/server/errors';
import { VAT_RATES, type VatRate } from '@/server/facts/vat-rates';
import type { NormalizedOrder, NormalizedRefund } from './types';
import { bucketTotals, type RateTotals, rateTotals } from './vat';
import { formatGrosze, formatUnitPrice } from './money';

/** Per-rate buckets (gross method) and the gross total of an invoice; grossGrosze is P_15. */
export type InvoiceTotals = { buckets: RateTotals[]; grossGrosze: number; vatGrosze: number; netGrosze: number };

/**
 * A KOR row. Difference rows (method A, kor-mapping.md §3) carry returned items: negative quantity, the price the
 * buyer paid per item (the invoice row's value share, discount included, so no negative "Rabat": art. 29a ust. 10
 * pkt 3 takes off what was charged for them) and the negative value. Before/after rows (method B,
 * StanPrzed) carry the invoice row as it stood before this correction and as it stands after it; a KOR that
 * reduces a price uses method B for all its rows (one method per KOR, tax-rules.md §1.2–1.3).
 */
export type CorrectionRow = {
  /** fee: a restocking fee kept from the refund of returned items, a positive row of its own */
  kind: 'line' | 'shipping' | 'fee';
  state: 'difference' | 'before' | 'after';
  /** UU_ID of the KOR row from the source system (WooCommerce refund item); null: the builder derives one */
  ref: string | null;
  /** 0-based position of the corrected row on the invoice (lines, then shipping): NrWierszaFa − 1 */
  invoiceRow: number;
  name: string;
  sku: string | null;
  /** difference: −returned items; before/after: the row's quantity in that state */
  quantity: number;
  /** P_9B text: before/after rows the invoice row's unit gross price; difference rows the value per returned item */
  unitPrice: string;
  /** P_10: before/after rows quantity × unit price − value (≥ 0); difference rows 0 */
  discountGrosze: number;
  /** P_11A: difference rows negative; before/after rows the row's value in that state */
  grossGrosze: number;
  vatRate: VatRate;
  annex15: boolean;
};

/** A bucket of a correction: the difference (after − before) plus both sides, for P_14_xW in PLN. */
export type CorrectionBucket = RateTotals & { before: RateTotals; after: RateTotals };
/**
 * What a refund did to one invoice row: items came back (art. 29a ust. 10 pkt 3), its price fell (pkt 1), or the
 * shop kept a fee from the refund of returned items.
 */
export type CorrectionChange = { kind: 'line' | 'shipping'; change: 'return' | 'reduce' | 'fee' };
export type CorrectionTotals = {
  rows: CorrectionRow[];
  changes: CorrectionChange[];
  buckets: CorrectionBucket[];
  grossGrosze: number;
  vatGrosze: number;
  netGrosze: number;
};

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function invoiceItems(order: NormalizedOrder): { grossGrosze: number; rate: VatRate }[] {
  return [
    ...order.lines.map((l) => ({ grossGrosze: l.grossGrosze, rate: l.vatRate })),
    ...order.shipping.map((s) => ({ grossGrosze: s.grossGrosze, rate: s.vatRate })),
  ];
}

export function computeTotals(order: NormalizedOrder): InvoiceTotals {
  const buckets = bucketTotals(invoiceItems(order));
  return {
    buckets,
    grossGrosze: sum(buckets.map((b) => b.grossGrosze)),
    vatGrosze: sum(buckets.map((b) => b.vatGrosze)),
    netGrosze: sum(buckets.map((b) => b.netGrosze)),
  };
}

const unprocessable = (message: string) => new AppError('order_unprocessable', 'refund', message);

/** One invoice row as earlier corrections left it: value = its items' share of the list value − discount (≥ 0). */
export type RowState = {
  kind: 'line' | 'shipping';
  ref: string | null;
  name: string;
  sku: string | null;
  /** the invoice row's value before its discount and its quantity: the unit price is their quotient (P_9B) */
  listGrosze: number;
  invoicedQuantity: number;
  vatRate: VatRate;
  annex15: boolean;
  quantity: number;
  grossGrosze: number;
};

/** Invoice rows in FaWiersz order (lines, then shipping), as invoiced. */
export function invoiceRowStates(order: NormalizedOrder): RowState[] {
  return [
    ...order.lines.map((l): RowState => ({
      kind: 'line',
      ref: l.ref,
      name: l.name,
      sku: l.sku,
      listGrosze: l.grossGrosze + l.discountGrosze,
      invoicedQuantity: l.quantity,
      vatRate: l.vatRate,
      annex15: l.annex15,
      quantity: l.quantity,
      grossGrosze: l.grossGrosze,
    })),
    ...order.shipping.map((s): RowState => ({
      kind: 'shipping',
      ref: s.ref,
      name: s.name,
      sku: null,
      listGrosze: s.grossGrosze,
      invoicedQuantity: 1,
      vatRate: s.vatRate,
      annex15: false,
      quantity: 1,
      grossGrosze: s.grossGrosze,
    })),
  ];
}

/** a × b / c rounded half away from zero, exact for any safe integers (a, b ≥ 0, c > 0). */
function mulDivRound(a: number, b: number, c: number): number {
  const n = BigInt(a) * BigInt(b) * 2n + BigInt(c);
  return Number(n / (2n * BigInt(c)));
}

/**
 * What `k` returned items of a row are worth: the row's value pro rata, so the discount (P_10) goes with the items
 * in proportion and returning the last item takes exactly what is left (art. 29a ust. 10: the base falls by what
 * was invoiced, never more).
 */
export function returnedValue(row: Pick<RowState, 'quantity' | 'grossGrosze'>, k: number): number {
  return row.grossGrosze - mulDivRound(row.grossGrosze, row.quantity - k, row.quantity);
}

/** valueGrosze: what the change takes off the row's bucket; a kept fee takes off a negative amount. */
type Change =
  | { row: number; ref: string | null; kind: 'return'; quantity: number; valueGrosze: number }
  | { row: number; ref: string | null; kind: 'reduce'; valueGrosze: number }
  | { row: number; ref: string | null; kind: 'fee'; valueGrosze: number };

const sameText = (a: string | null, b: string | null) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

function shippingRate(rows: readonly RowState[]): VatRate {
  const rates = new Set(rows.filter((r) => r.kind === 'shipping').map((r) => r.vatRate));
  const [rate] = rates;
  if (rate === undefined) throw new AppError('order_unprocessable', 'refund.shipping', 'the refund returns shipping, but the invoice has no shipping');
  if (rates.size > 1) throw new AppError('order_unprocessable', 'refund.shipping', 'the invoice has shipping at several VAT rates; refund it as lines instead');
  return rate;
}

/** The changes one refund line makes: the row it matches loses the returned items' value, or the price reduction. */
function applyRefundLine(rows: RowState[], r: NormalizedRefund['lines'][number], i: number): Change[] {
  const changes: Change[] = [];
  const at = `refund.lines[${i}]`;
  const candidates = rows
    .map((row, index) => ({ row, index }))
    .filter(
      ({ row }) =>
        row.kind === 'line' &&
        (r.invoiceLineRef !== null ? row.ref === r.invoiceLineRef : sameText(row.name, r.name) && sameText(row.sku, r.sku) && row.vatRate === r.vatRate),
    );
  if (candidates.length === 0) throw new AppError('order_unprocessable', at, `refund line "${r.name}" matches no line of the invoice (name, sku and VAT rate)`);
  const target = candidates.find((c) => c.row.quantity >= r.quantity);
  if (!target) {
    throw new AppError(
      'order_unprocessable',
      `${at}.quantity`,
      `returns ${r.quantity} × "${r.name}", more than remains invoiced after earlier corrections (${Math.max(...candidates.map((c) => c.row.quantity))})`,
    );
  }
  const { row, index } = target;
  if (row.vatRate !== r.vatRate) throw new AppError('order_unprocessable', `${at}.vat_rate`, `the invoice line "${row.name}" has VAT rate ${row.vatRate}`);
  // r·q against the row value g: r ≥ g/q + 0.01 ⇔ r·q ≥ g + q
  if (r.unitPriceGrosze * row.quantity >= row.grossGrosze + row.quantity) {
    throw new AppError(
      'order_unprocessable',
      `${at}.unit_price`,
      `refunds ${formatGrosze(r.unitPriceGrosze)} per item of "${row.name}", more than invoiced per item (${formatGrosze(row.grossGrosze)} for ${row.quantity})`,
    );
  }
  const fee = r.feeGrosze ?? 0;
  const returned = r.unitPriceGrosze * row.quantity > row.grossGrosze - row.quantity;
  if (fee > 0 && !returned) {
    throw new AppError(
      'order_unprocessable',
      `${at}.restocking_fee`,
      `a restocking fee goes with returned items: unit_price must be what "${row.name}" was invoiced at per item (${formatGrosze(row.grossGrosze)} for ${row.quantity})`,
    );
  }
  if (returned) {
    const value = returnedValue(row, r.quantity);
    row.grossGrosze -= value;
    row.quantity -= r.quantity;
    changes.push({ row: index, ref: r.ref, kind: 'return', quantity: r.quantity, valueGrosze: value });
    // kept = what the items were worth − what the buyer got back, so the correction is exactly −(refund)
    const kept = fee > 0 ? value - (r.quantity * r.unitPriceGrosze - fee) : 0;
    if (kept > 0) changes.push({ row: index, ref: null, kind: 'fee', valueGrosze: -kept });
  } else if (r.unitPriceGrosze > 0) {
    const value = r.quantity * r.unitPriceGrosze;
    row.grossGrosze -= value;
    changes.push({ row: index, ref: r.ref, kind: 'reduce', valueGrosze: value });
  }
  return changes;
}

/** The changes refunded shipping makes: a shipping row refunded in full is returned, anything less reduces them. */
function applyRefundShipping(rows: RowState[], shippingGrosze: number, shippingRef: NormalizedRefund['shippingRef']): Change[] {
  const changes: Change[] = [];
  shippingRate(rows); // refunded shipping takes the invoice's shipping rate (spec 2.5)
  const shipping = rows.map((row, index) => ({ row, index })).filter(({ row }) => row.kind === 'shipping');
  const left = sum(shipping.map(({ row }) => row.grossGrosze));
  if (shippingGrosze > left) {
    throw new AppError(
      'order_unprocessable',
      'refund.shipping.price',
      `refunds ${formatGrosze(shippingGrosze)} of shipping, more than remains invoiced (${formatGrosze(left)})`,
    );
  }
  // kor-mapping.md §5: a shipping row refunded in full is returned; anything less reduces the shipping price
  const whole = shipping.find(({ row }) => row.quantity === 1 && row.grossGrosze === shippingGrosze);
  if (whole) {
    changes.push({ row: whole.index, ref: shippingRef, kind: 'return', quantity: 1, valueGrosze: whole.row.grossGrosze });
    whole.row.quantity = 0;
    whole.row.grossGrosze = 0;
  } else {
    let rest = shippingGrosze;
    for (const { row, index } of shipping) {
      const take = Math.min(rest, row.grossGrosze);
      if (take === 0) continue;
      row.grossGrosze -= take;
      rest -= take;
      changes.push({ row: index, ref: shippingRef, kind: 'reduce', valueGrosze: take });
    }
  }
  return changes;
}

/**
 * The changes one refund makes to the invoice rows, applied to `rows`; order_unprocessable when it does not fit.
 * A refund line is compared per unit with what the matched row is invoiced at (e = value / quantity):
 * - unit_price ≥ e + 0.01: refused, a correction never takes more off a row than was invoiced (art. 29a ust. 10);
 * - |unit_price − e| < 0.01: the items are returned; the row loses their pro-rata value (returnedValue);
 * - unit_price ≤ e − 0.01: a price reduction after the sale (art. 29a ust. 10 pkt 1) of quantity × unit_price on
 *   items the buyer keeps.
 * A line with a restocking fee is a return: the base falls by what the items were invoiced at and the fee the shop
 * keeps stays in it as a row of its own (the base falls only by what is given back, art. 29a ust. 10 pkt 3), so the
 * correction totals minus what the buyer got back.
 */
function applyRefund(rows: RowState[], refund: NormalizedRefund): Change[] {
  if (refund.lines.length === 0 && refund.shippingGrosze === null) {
    throw unprocessable('an amount-only refund cannot be split by VAT rate: send the returned lines or shipping');
  }
  const changes: Change[] = refund.lines.flatMap((r, i) => applyRefundLine(rows, r, i));
  if (refund.shippingGrosze !== null) changes.push(...applyRefundShipping(rows, refund.shippingGrosze, refund.shippingRef));
  if (changes.every((c) => c.valueGrosze === 0)) throw unprocessable('the refund returns nothing of value');
  return changes;
}

/** P_10 of a before/after row: its items at the invoice's unit price, less its value (whole grosze). */
const discountOf = (row: Pick<RowState, 'quantity' | 'listGrosze' | 'invoicedQuantity' | 'grossGrosze'>) =>
  mulDivRound(row.listGrosze, row.quantity, row.invoicedQuantity) - row.grossGrosze;
const unitPriceOf = (row: Pick<RowState, 'listGrosze' | 'invoicedQuantity'>) => formatUnitPrice(row.listGrosze, row.invoicedQuantity);

function correctionRow(
  row: RowState,
  index: number,
  state: CorrectionRow['state'],
  ref: string | null,
  quantity: number,
  grossGrosze: number,
  unitPrice: string,
  discountGrosze: number,
): CorrectionRow {
  return {
    kind: row.kind,
    state,
    ref,
    invoiceRow: index,
    name: row.name,
    sku: row.sku,
    quantity,
    unitPrice,
    discountGrosze,
    grossGrosze,
    vatRate: row.vatRate,
    annex15: row.annex15,
  };
}

/**
 * The KOR rows of `changes`: difference rows for returns (and the fees kept from them, a positive row each),
 * before/after rows as soon as a price is reduced.
 */
function correctionRows(before: readonly RowState[], after: readonly RowState[], changes: readonly Change[]): CorrectionRow[] {
  if (changes.every((c) => c.kind !== 'reduce')) {
    return changes.map((c) => {
      if (c.kind === 'fee') {
        const row = after[c.row]!;
        const fee = -c.valueGrosze;
        return {
          ...correctionRow(row, c.row, 'difference', null, 1, fee, formatGrosze(fee), 0),
          kind: 'fee',
          name: `Opłata za przyjęcie zwrotu: ${row.name}`,
          sku: null,
          annex15: false,
        };
      }
      const quantity = c.kind === 'return' ? c.quantity : 0;
      return correctionRow(after[c.row]!, c.row, 'difference', c.ref, -quantity, -c.valueGrosze, formatUnitPrice(c.valueGrosze, quantity), 0);
    });
  }
  if (changes.some((c) => c.kind === 'fee')) {
    throw unprocessable('a restocking fee and a price reduction cannot share one correction: send the price reduction as a refund of its own');
  }
  const touched = [...new Set(changes.map((c) => c.row))].sort((a, b) => a - b);
  return touched.flatMap((index) => {
    const b = before[index]!;
    const a = after[index]!;
    return [
      correctionRow(b, index, 'before', null, b.quantity, b.grossGrosze, unitPriceOf(b), discountOf(b)),
      correctionRow(a, index, 'after', null, a.quantity, a.grossGrosze, unitPriceOf(a), discountOf(a)),
    ];
  });
}

/** The signed contribution of a KOR row to its bucket: before rows count negative. */
export const rowDelta = (r: Pick<CorrectionRow, 'state' | 'grossGrosze'>): number => (r.state === 'before' ? -r.grossGrosze : r.grossGrosze);

/** The invoice rows (lines, then shipping) as the refunds so far (oldest first) left them: quantity and value still invoiced. */
export function remainingRows(invoiceOrder: NormalizedOrder, refunds: readonly NormalizedRefund[]): RowState[] {
  const state = invoiceRowStates(invoiceOrder);
  for (const refund of refunds) applyRefund(state, refund);
  return state;
}

/**
 * The KOR for `refund` of the invoice of `invoiceOrder`, after `earlierRefunds` (oldest first): difference
 * rows and, per rate, ΔV = V(after) − V(before) over the cumulative buckets (kor-mapping.md §4), so that the
 * invoice plus all its corrections always carry the VAT of the final gross amount.
 */
export function computeCorrection(invoiceOrder: NormalizedOrder, earlierRefunds: readonly NormalizedRefund[], refund: NormalizedRefund): CorrectionTotals {
  const state = invoiceRowStates(invoiceOrder);
  const before = new Map<VatRate, number>(computeTotals(invoiceOrder).buckets.map((b) => [b.rate, b.grossGrosze]));
  for (const earlier of earlierRefunds) {
    for (const change of applyRefund(state, earlier)) {
      const rate = state[change.row]!.vatRate;
      before.set(rate, (before.get(rate) ?? 0) - change.valueGrosze);
    }
  }
  const snapshot = state.map((r) => ({ ...r }));
  const changes = applyRefund(state, refund);
  const rows = correctionRows(snapshot, state, changes);
  const buckets = VAT_RATES.filter((rate) => rows.some((r) => r.vatRate === rate)).map((rate): CorrectionBucket => {
    const delta = sum(rows.filter((r) => r.vatRate === rate).map(rowDelta));
    const b = rateTotals(rate, before.get(rate) ?? 0);
    const a = rateTotals(rate, b.grossGrosze + delta);
    return { rate, grossGrosze: delta, vatGrosze: a.vatGrosze - b.vatGrosze, netGrosze: a.netGrosze - b.netGrosze, before: b, after: a };
  });
  return {
    rows,
    changes: changes.map((c) => ({ kind: state[c.row]!.kind, change: c.kind })),
    buckets,
    grossGrosze: sum(buckets.map((b) => b.grossGrosze)),
    vatGrosze: sum(buckets.map((b) => b.vatGrosze)),
    netGrosze: sum(buckets.map((b) => b.netGrosze)),
  };
}
