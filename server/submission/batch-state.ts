import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '@/server/db/client';
import { documents, ksefBatchDocuments, ksefBatches } from '@/server/db/schema';
import { transition } from '@/server/documents/transition';
import { enqueue } from '@/server/jobs/enqueue';
import { firstPollAt } from './backoff';
import { enqueueSend, notAnswered, requeueInTx } from './document-outcomes';

export type BatchRow = typeof ksefBatches.$inferSelect;

/**
 * A batch KSeF may still process holds the document `d` (alias): one being built, or a live one whose session the
 * document names. Then only that batch decides the document's fate.
 */
export const IN_LIVE_BATCH = sql`exists (
  select 1 from ksef_batch_documents bd join ksef_batches b on b.id = bd.batch_id
  where bd.document_id = d.id and b.status in ('building', 'opened', 'uploaded', 'closed')
    and (b.status = 'building' or b.reference_number = d.ksef_session_ref))`;

export async function isInLiveBatch(db: Db | Tx, documentId: string): Promise<boolean> {
  const [row] = await db.execute<{ live: boolean }>(sql`select ${IN_LIVE_BATCH} as live from documents d where d.id = ${documentId}`);
  return row?.live === true;
}

export async function batchDocuments(db: Db | Tx, batchId: string) {
  return db
    .select({ doc: documents, fileName: ksefBatchDocuments.fileName })
    .from(ksefBatchDocuments)
    .innerJoin(documents, eq(documents.id, ksefBatchDocuments.documentId))
    .where(eq(ksefBatchDocuments.batchId, batchId))
    .orderBy(asc(documents.seq));
}

/**
 * The batch will never be processed by KSeF (never opened, or never closed): its documents go back to queued,
 * with the lane's send job. Only sound when KSeF provably did not get the close. `outage`: KSeF did not answer.
 */
export async function abandonBatch(db: Db, batchId: string, reason: string, outage = false): Promise<void> {
  await db.transaction(async (tx) => {
    const [batch] = await tx.select().from(ksefBatches).where(eq(ksefBatches.id, batchId)).for('update');
    // a closed batch had its close acknowledged: only its status job decides its documents
    if (!batch || batch.status === 'done' || batch.status === 'abandoned' || batch.status === 'closed') return;
    await tx.update(ksefBatches).set({ status: 'abandoned', updatedAt: new Date() }).where(eq(ksefBatches.id, batchId));
    const members = await tx
      .select()
      .from(documents)
      .where(inArray(documents.id, tx.select({ id: ksefBatchDocuments.documentId }).from(ksefBatchDocuments).where(eq(ksefBatchDocuments.batchId, batchId))))
      .orderBy(asc(documents.seq))
      .for('update');
    const detail = `batch session ${batch.referenceNumber} not completed: ${reason}`;
    for (const doc of members) {
      const claimed = doc.status === 'sending' && doc.ksefSessionRef === batch.referenceNumber && !doc.ksefInvoiceRef;
      // claimed, but no session opened (KSeF down or the throttle): nothing reached KSeF, so no attempt is counted
      if (claimed && !batch.referenceNumber) await transition(tx, doc, 'queued', {});
      else if (claimed)
        await requeueInTx(tx, doc, outage ? notAnswered(detail) : { outage: false, message: `Sending again: ${detail}.` }, undefined, { ksefSessionRef: null });
    }
    await enqueueSend(tx, batch);
  });
}

/** The close was acknowledged: from here only the status job (ksef_batch_status) moves the documents. */
export async function markBatchClosed(db: Db, batchId: string): Promise<void> {
  await db.transaction(async (tx) => {
    // both the uploading step and a reconciling one may find the close done: one status job
    const [closed] = await tx
      .update(ksefBatches)
      .set({ status: 'closed', updatedAt: new Date() })
      .where(and(eq(ksefBatches.id, batchId), notInArray(ksefBatches.status, ['closed', 'done'])))
      .returning({ id: ksefBatches.id });
    if (closed) await enqueue(tx, 'ksef_batch_status', { batchId, poll: 0 }, { runAt: firstPollAt() });
  });
}
