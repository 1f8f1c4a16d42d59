import type { DbOrTx } from '../db/client';
import type { Scope } from '../db/scope';
import { earlierRefunds } from '../documents/earlier-refunds';
import { getDocument } from '../documents/get-document';
import { AppError } from '../errors';
import { ZNormalizedOrder } from '../orders/types';

export type CorrectableLine = { name: string; sku: string | null; vatRate: number; quantity: number; unitPriceGrosze: number };

const sameText = (a: string | null, b: string | null) => (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/**
 * What the "create correction" form offers for an invoice of the scope: each line with the quantity that earlier
 * corrections left and the price paid per item (discount spread, rounded down so a full return never exceeds what
 * was charged), and the shipping still refundable.
 */
export async function getCorrectionForm(db: DbOrTx, scope: Scope, invoiceId: string) {
  const invoice = await getDocument(db, scope, invoiceId);
  if (invoice.kind !== 'invoice') throw new AppError('correction_requires_invoice', 'id');
  const order = ZNormalizedOrder.parse(invoice.input);
  const remaining = order.lines.map((l) => ({ line: l, quantity: l.quantity, grossGrosze: l.grossGrosze }));
  let shippingGrosze = order.shipping.reduce((s, i) => s + i.grossGrosze, 0);
  for (const refund of await earlierRefunds(db, invoice.id)) {
    for (const r of refund.lines) {
      const target = remaining.find((c) => sameText(c.line.name, r.name) && sameText(c.line.sku, r.sku) && c.line.vatRate === r.vatRate && c.quantity >= r.quantity);
      if (!target) continue;
      target.quantity -= r.quantity;
      target.grossGrosze -= r.quantity * r.unitPriceGrosze;
    }
    shippingGrosze -= refund.shippingGrosze ?? 0;
  }
  const lines: CorrectableLine[] = remaining.map((c) => ({
    name: c.line.name,
    sku: c.line.sku,
    vatRate: c.line.vatRate,
    quantity: c.quantity,
    unitPriceGrosze: c.quantity > 0 ? Math.floor(c.grossGrosze / c.quantity) : 0,
  }));
  return { invoiceId: invoice.id, currency: invoice.currency ?? order.currency, lines, shippingGrosze: Math.max(0, shippingGrosze) };
}
