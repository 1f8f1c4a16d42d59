import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { earlierRefunds } from '@/server/documents/earlier-refunds';
import { getDocument } from '@/server/documents/get-document';
import { AppError } from '@/server/errors';
import { remainingRows } from '@/server/orders/totals';
import { ZNormalizedOrder } from '@/server/orders/types';

export type CorrectableLine = { name: string; sku: string | null; vatRate: number; quantity: number; unitPriceGrosze: number };

/**
 * What the "create correction" form offers for an invoice of the scope: each line with the quantity that earlier
 * corrections left and the price per item still invoiced (value left / quantity left, rounded down, which the
 * refund rules take as a return of the items), and the shipping still refundable. The same row state as the
 * correction maths (remainingRows).
 */
export async function getCorrectionForm(db: DbOrTx, scope: Scope, invoiceId: string) {
  const invoice = await getDocument(db, scope, invoiceId);
  if (invoice.kind !== 'invoice') throw new AppError('correction_requires_invoice', 'id');
  const order = ZNormalizedOrder.parse(invoice.input);
  const rows = remainingRows(order, await earlierRefunds(db, invoice.id));
  const lines: CorrectableLine[] = rows
    .filter((r) => r.kind === 'line')
    .map((r) => ({
      name: r.name,
      sku: r.sku,
      vatRate: r.vatRate,
      quantity: r.quantity,
      unitPriceGrosze: r.quantity > 0 ? Math.floor(r.grossGrosze / r.quantity) : 0,
    }));
  const shippingGrosze = rows.filter((r) => r.kind === 'shipping').reduce((s, r) => s + r.grossGrosze, 0);
  return { invoiceId: invoice.id, currency: invoice.currency ?? order.currency, lines, shippingGrosze };
}
