import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inScope, type Scope } from '../db/scope';
import { accountModes, documents, documentTransitions } from '../db/schema';
import { newId } from '../ids';
import { enqueue } from '../jobs/enqueue';
import type { NormalizedOrder } from '../orders/types';
import type { DocumentRow } from './document-row';

/**
 * Intake of a paid order: one invoice per (account, mode, order external_id), guaranteed by a unique index so
 * that concurrent identical requests never make two. The pending document and its document_prepare job commit
 * together (invariant 2).
 */
export async function createInvoiceDocument(db: Db, scope: Scope, order: NormalizedOrder): Promise<{ document: DocumentRow; created: boolean }> {
  return db.transaction(async (tx) => {
    const [mode] = await tx.select({ env: accountModes.ksefEnvironment }).from(accountModes).where(inScope(accountModes, scope));
    const [inserted] = await tx
      .insert(documents)
      .values({
        id: newId('inv'),
        accountId: scope.accountId,
        mode: scope.mode,
        kind: 'invoice',
        orderExternalId: order.externalId,
        ksefEnvironment: mode?.env ?? (scope.mode === 'live' ? 'prod' : 'test'),
        buyerEmail: order.buyer.email,
        input: order,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      await tx.insert(documentTransitions).values({ documentId: inserted.id, fromStatus: null, toStatus: 'pending' });
      await enqueue(tx, 'document_prepare', { documentId: inserted.id }, { jobKey: `prepare:${inserted.id}` });
      return { document: inserted, created: true };
    }
    const [existing] = await tx
      .select()
      .from(documents)
      .where(and(inScope(documents, scope), eq(documents.kind, 'invoice'), eq(documents.orderExternalId, order.externalId)));
    if (!existing) throw new Error(`invoice for order ${order.externalId} neither inserted nor found`);
    return { document: existing, created: false };
  });
}
