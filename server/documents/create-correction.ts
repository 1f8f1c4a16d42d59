import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inScope, type Scope } from '../db/scope';
import { documents, documentTransitions } from '../db/schema';
import { AppError } from '../errors';
import { newId } from '../ids';
import { enqueue } from '../jobs/enqueue';
import { computeCorrection } from '../orders/totals';
import { ZNormalizedOrder, type NormalizedRefund } from '../orders/types';
import type { DocumentRow } from './document-row';
import { earlierRefunds } from './earlier-refunds';

/**
 * Intake of a refund as a KOR of invoice `invoiceId` (spec 4.5): one correction per refund external_id; returned
 * quantities are checked against what earlier corrections left, under a lock on the invoice so two concurrent
 * refunds cannot both take the last item.
 */
export async function createCorrectionDocument(
  db: Db,
  scope: Scope,
  invoiceId: string,
  refund: NormalizedRefund,
): Promise<{ document: DocumentRow; created: boolean }> {
  if (invoiceId.startsWith('cor_')) throw new AppError('correction_requires_invoice', 'id');
  return db.transaction(async (tx) => {
    const [invoice] = await tx
      .select()
      .from(documents)
      .where(and(eq(documents.id, invoiceId), eq(documents.accountId, scope.accountId), eq(documents.kind, 'invoice')))
      .for('update');
    if (!invoice) throw new AppError('resource_missing', 'id', `No such invoice: ${invoiceId}.`);
    if (invoice.mode !== scope.mode) throw new AppError('livemode_mismatch', 'id', `Invoice ${invoiceId} belongs to ${invoice.mode} mode.`);

    const [existing] = await tx
      .select()
      .from(documents)
      .where(and(inScope(documents, scope), eq(documents.kind, 'correction'), eq(documents.refundExternalId, refund.externalId)));
    if (existing) return { document: existing, created: false };

    computeCorrection(ZNormalizedOrder.parse(invoice.input), await earlierRefunds(tx, invoice.id), refund); // order_unprocessable
    const [inserted] = await tx
      .insert(documents)
      .values({
        id: newId('cor'),
        accountId: scope.accountId,
        mode: scope.mode,
        kind: 'correction',
        invoiceId: invoice.id,
        orderExternalId: invoice.orderExternalId,
        refundExternalId: refund.externalId,
        ksefEnvironment: invoice.ksefEnvironment,
        buyerEmail: invoice.buyerEmail,
        input: refund,
      })
      .returning();
    await tx.insert(documentTransitions).values({ documentId: inserted!.id, fromStatus: null, toStatus: 'pending' });
    await tx.update(documents).set({ updatedAt: sql`now()` }).where(eq(documents.id, invoice.id)); // its corrections array changed
    await enqueue(tx, 'document_prepare', { documentId: inserted!.id }, { jobKey: `prepare:${inserted!.id}` });
    return { document: inserted!, created: true };
  });
}
