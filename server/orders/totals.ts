import { AppError } from '../errors';
import type { NormalizedLine, NormalizedOrder, NormalizedRefund } from './types';
import { bucketTotals, type RateTotals, rateTotals, VAT_RATES, type VatRate } from './vat';
import { formatGrosze } from './money';

/** Per-rate buckets (gross method) and the gross total of an invoice; grossGrosze is P_15. */
export type InvoiceTotals = { buckets: RateTotals[]; grossGrosze: number; vatGrosze: number; netGrosze: number };

export type CorrectionRow = {
  kind: 'line' | 'shipping';
  /** UU_ID of the KOR row */
  ref: string | null;
  name: string;
  sku: string | null;
  /** negative for returned items; 1 for a price reduction (shipping partly refunded) */
  quantity: number;
  /** positive for returned items; negative for a price reduction */
  unitPriceGrosze: number;
  /** quantity × unitPriceGrosze, always negative */
  grossGrosze: number;
  vatRate: VatRate;
};

/** A bucket of a correction: the difference (after − before) plus both sides, for P_14_xW in PLN. */
export type CorrectionBucket = RateTotals & { before: RateTotals; after: RateTotals };
export type CorrectionTotals = { rows: CorrectionRow[]; buckets: CorrectionBucket[]; grossGrosze: number; vatGrosze: number; netGrosze: number };

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function invoiceItems(order: NormalizedOrder): { grossGrosze: number; rate: VatRate }[] {
  return [...order.lines.map((l) => ({ grossGrosze: l.grossGrosze, rate: l.vatRate })), ...order.shipping.map((s) => ({ grossGrosze: s.grossGrosze, rate: s.vatRate }))];
}

export function computeTotals(order: NormalizedOrder): InvoiceTotals {
  const buckets = bucketTotals(invoiceItems(order));
  return { buckets, grossGrosze: sum(buckets.map((b) => b.grossGrosze)), vatGrosze: sum(buckets.map((b) => b.vatGrosze)), netGrosze: sum(buckets.map((b) => b.netGrosze)) };
}

const unprocessable = (message: string) => new AppError('order_unprocessable', 'refund', message);

/** What is left to return of each invoice line and of the shipping, as earlier refunds are applied. */
type Remaining = { lines: { line: NormalizedLine; quantity: number; grossGrosze: number }[]; shippingGrosze: number };

const sameText = (a: string | null, b: string | null) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

function shippingRate(order: NormalizedOrder): VatRate {
  const rates = new Set(order.shipping.map((s) => s.vatRate));
  const [rate] = rates;
  if (rate === undefined) throw unprocessable('the refund returns shipping, but the invoice has no shipping');
  if (rates.size > 1) throw unprocessable('the invoice has shipping at several VAT rates; refund it as lines instead');
  return rate;
}

/** Applies one refund to `remaining` and returns its difference rows; throws order_unprocessable when it does not fit. */
function applyRefund(order: NormalizedOrder, remaining: Remaining, refund: NormalizedRefund): CorrectionRow[] {
  if (refund.lines.length === 0 && refund.shippingGrosze === null) {
    throw unprocessable('an amount-only refund cannot be split by VAT rate: send the returned lines or shipping');
  }
  const rows: CorrectionRow[] = refund.lines.map((r, i) => {
    const candidates = remaining.lines.filter((c) =>
      r.invoiceLineRef !== null ? c.line.ref === r.invoiceLineRef : sameText(c.line.name, r.name) && sameText(c.line.sku, r.sku) && c.line.vatRate === r.vatRate,
    );
    if (candidates.length === 0) throw new AppError('order_unprocessable', `refund.lines[${i}]`, `refund line "${r.name}" matches no line of the invoice (name, sku and VAT rate)`);
    const target = candidates.find((c) => c.quantity >= r.quantity);
    if (!target) {
      throw new AppError('order_unprocessable', `refund.lines[${i}].quantity`, `returns ${r.quantity} × "${r.name}", more than remains invoiced after earlier corrections (${Math.max(...candidates.map((c) => c.quantity))})`);
    }
    if (target.line.vatRate !== r.vatRate) throw new AppError('order_unprocessable', `refund.lines[${i}].vat_rate`, `the invoice line "${target.line.name}" has VAT rate ${target.line.vatRate}`);
    const gross = r.quantity * r.unitPriceGrosze;
    if (gross > target.grossGrosze) {
      throw new AppError('order_unprocessable', `refund.lines[${i}].unit_price`, `refunds ${formatGrosze(gross)} for "${r.name}", more than remains invoiced (${formatGrosze(target.grossGrosze)})`);
    }
    target.quantity -= r.quantity;
    target.grossGrosze -= gross;
    return { kind: 'line', ref: r.ref, name: target.line.name, sku: target.line.sku, quantity: -r.quantity, unitPriceGrosze: r.unitPriceGrosze, grossGrosze: -gross, vatRate: r.vatRate };
  });
  if (refund.shippingGrosze !== null) {
    const rate = shippingRate(order); // refunded shipping takes the invoice's shipping rate (spec 2.5)
    if (refund.shippingGrosze > remaining.shippingGrosze) {
      throw new AppError('order_unprocessable', 'refund.shipping.price', `refunds ${formatGrosze(refund.shippingGrosze)} of shipping, more than remains invoiced (${formatGrosze(remaining.shippingGrosze)})`);
    }
    const [only] = order.shipping;
    const whole = order.shipping.length === 1 && only !== undefined && refund.shippingGrosze === only.grossGrosze;
    const name = order.shipping.length === 1 && only ? only.name : 'Dostawa';
    // kor-mapping.md §5: a full shipping refund returns the row (-1 × price); a partial one is a price reduction
    rows.push(
      whole
        ? { kind: 'shipping', ref: refund.shippingRef, name, sku: null, quantity: -1, unitPriceGrosze: refund.shippingGrosze, grossGrosze: -refund.shippingGrosze, vatRate: rate }
        : { kind: 'shipping', ref: refund.shippingRef, name: `${name} – obniżka ceny`, sku: null, quantity: 1, unitPriceGrosze: -refund.shippingGrosze, grossGrosze: -refund.shippingGrosze, vatRate: rate },
    );
    remaining.shippingGrosze -= refund.shippingGrosze;
  }
  if (rows.every((r) => r.grossGrosze === 0)) throw unprocessable('the refund returns nothing of value');
  return rows;
}

/**
 * The KOR for `refund` of the invoice of `invoiceOrder`, after `earlierRefunds` (oldest first): difference
 * rows and, per rate, ΔV = V(after) − V(before) over the cumulative buckets (kor-mapping.md §4), so that the
 * invoice plus all its corrections always carry the VAT of the final gross amount.
 */
export function computeCorrection(invoiceOrder: NormalizedOrder, earlierRefunds: readonly NormalizedRefund[], refund: NormalizedRefund): CorrectionTotals {
  const remaining: Remaining = {
    lines: invoiceOrder.lines.map((line) => ({ line, quantity: line.quantity, grossGrosze: line.grossGrosze })),
    shippingGrosze: sum(invoiceOrder.shipping.map((s) => s.grossGrosze)),
  };
  const before = new Map<VatRate, number>(computeTotals(invoiceOrder).buckets.map((b) => [b.rate, b.grossGrosze]));
  for (const earlier of earlierRefunds) {
    for (const row of applyRefund(invoiceOrder, remaining, earlier)) before.set(row.vatRate, (before.get(row.vatRate) ?? 0) + row.grossGrosze);
  }
  const rows = applyRefund(invoiceOrder, remaining, refund);
  const buckets = VAT_RATES.filter((rate) => rows.some((r) => r.vatRate === rate)).map((rate): CorrectionBucket => {
    const delta = sum(rows.filter((r) => r.vatRate === rate).map((r) => r.grossGrosze));
    const b = rateTotals(rate, before.get(rate) ?? 0);
    const a = rateTotals(rate, b.grossGrosze + delta);
    return { rate, grossGrosze: delta, vatGrosze: a.vatGrosze - b.vatGrosze, netGrosze: a.netGrosze - b.netGrosze, before: b, after: a };
  });
  return { rows, buckets, grossGrosze: sum(buckets.map((b) => b.grossGrosze)), vatGrosze: sum(buckets.map((b) => b.vatGrosze)), netGrosze: sum(buckets.map((b) => b.netGrosze)) };
}
