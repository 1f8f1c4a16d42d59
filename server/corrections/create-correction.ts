import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents, documentTransitions } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { hasPrefix, newId } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { checkCorrectionFits } from '@/server/ksef/fa3/size';
import { computeCorrection } from '@/server/orders/totals';
import { ZNormalizedOrder, type NormalizedRefund } from '@/server/orders/types';
import type { DocumentRow } from '@/server/documents/document-row';
import { earlierRefunds } from '@/server/documents/earlier-refunds';

/**
 * Intake of a refund as a KOR of invoice `invoiceId` (spec 4.5): one correction per refund external_id; returned
 * quantities are checked against what earlier corrections left, under a lock on the invoice so two concurrent
 * refunds cannot both take the last item.
 *
 * A refund external_id is unique per account and mode (the shop's refund ids are; documents_refund_uq): a repeat
 * on the same invoice returns the existing correction (200), the same id on another invoice is refused at
 * `refund.external_id`, whichever request came first and whether or not they ran at the same time.
 */
export async function createCorrectionDocument(
  db: Db,
  scope: Scope,
  invoiceId: string,
  refund: NormalizedRefund,
): Promise<{ document: DocumentRow; created: boolean }> {
  if (hasPrefix(invoiceId, 'cor')) throw new AppError('correction_requires_invoice', 'id');
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
    if (existing) return repeated(existing, invoice.id, refund.externalId);

    const order = ZNormalizedOrder.parse(invoice.input);
    const earlier = await earlierRefunds(tx, invoice.id);
    computeCorrection(order, earlier, refund); // order_unprocessable
    checkCorrectionFits(order, earlier, refund, 'refund.lines');
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
      // a concurrent request with the same refund id committed first: this one is a repeat of it
      .onConflictDoNothing({ target: [documents.accountId, documents.mode, documents.refundExternalId], where: sql`kind = 'correction'` })
      .returning();
    if (!inserted) {
      const [winner] = await tx
        .select()
        .from(documents)
        .where(and(inScope(documents, scope), eq(documents.kind, 'correction'), eq(documents.refundExternalId, refund.externalId)));
      return repeated(winner!, invoice.id, refund.externalId);
    }
    await tx.insert(documentTransitions).values({ documentId: inserted.id, fromStatus: null, toStatus: 'pending' });
    await tx
      .update(documents)
      .set({ updatedAt: sql`now()` })
      .where(eq(documents.id, invoice.id)); // its corrections array changed
    await enqueue(tx, 'document_prepare', scope);
    return { document: inserted, created: true };
  });
}

function repeated(existing: DocumentRow, invoiceId: string, refundId: string): { document: DocumentRow; created: false } {
  if (existing.invoiceId !== invoiceId) {
    throw new AppError(
      'parameter_invalid',
      'refund.external_id',
      `Refund ${refundId} is already the correction ${existing.id} of invoice ${existing.invoiceId}; a refund id is used once per account and mode.`,
    );
  }
  return { document: existing, created: false };
}
