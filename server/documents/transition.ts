import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@/server/db/client';
import { documents, documentTransitions, storeDocuments, type DocumentStatus, type StoredError } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import { recordDocumentEvent } from './record-document-event';
import type { DocumentRow } from './document-row';
import { DOCUMENT_COLUMNS, documentFromSql } from './load-document';
import { metrics } from '@/server/observability/metrics';

/** A document's new `updated`: now, but always after the previous value (ordering by it never ties). */
export const nextUpdatedAt = () => sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')`;

/** The moves of spec section 3; anything else is a bug and throws. */
const NEXT: Record<DocumentStatus, readonly DocumentStatus[]> = {
  pending: ['queued', 'skipped', 'waiting_for_plan_limit', 'error'],
  waiting_for_plan_limit: ['queued', 'skipped'],
  queued: ['queued', 'sending', 'skipped', 'error'],
  sending: ['sending', 'queued', 'accepted', 'rejected', 'error'],
  accepted: [],
  // only a technical correction: an offline document KSeF rejected for a technical reason is sent again (issue 17)
  rejected: ['queued'],
  skipped: [],
  error: [],
};

const FINAL_EVENT: Partial<Record<DocumentStatus, 'accepted' | 'rejected' | 'skipped'>> = {
  accepted: 'accepted',
  rejected: 'rejected',
  skipped: 'skipped',
};

export type DocumentPatch = Partial<Omit<typeof documents.$inferInsert, 'id' | 'accountId' | 'mode' | 'kind' | 'status'>>;

/**
 * Every status change goes through here: it checks the move, writes the timeline row and, for a final state,
 * the event and its webhook jobs, all in the caller's transaction (invariant 3). A same-status "move" records a
 * new `last_error` on the timeline (queued → queued with ksef_unavailable, for example).
 */
export async function transition(tx: Tx, doc: DocumentRow, to: DocumentStatus, patch: DocumentPatch = {}): Promise<DocumentRow> {
  if (!NEXT[doc.status].includes(to)) throw new Error(`illegal move ${doc.status} → ${to} for ${doc.id}`);
  const update = tx
    .update(documents)
    .set({ ...patch, status: to, updatedAt: nextUpdatedAt() })
    .where(eq(documents.id, doc.id))
    .getSQL();
  const [raw] = await tx.execute<Record<string, unknown>>(sql`${update} returning ${DOCUMENT_COLUMNS}`);
  if (!raw) throw new Error(`document ${doc.id} vanished`);
  const updated = documentFromSql(raw);
  const error = (patch.lastError ?? null) as StoredError | null;
  if (doc.status !== to || error) {
    await tx.insert(documentTransitions).values({ documentId: doc.id, fromStatus: doc.status, toStatus: to, error });
    metrics().documentTransitions.inc({ from: doc.status, to });
  }
  const outcome = FINAL_EVENT[to];
  if (outcome) await recordDocumentEvent(tx, updated, `${updated.kind}.${outcome}`);
  if (to === 'accepted') await enqueueStoreWriteback(tx, updated.id);
  return updated;
}

/** A document that came from a store connection is written back to its order once accepted (server/stores/writeback.ts). */
async function enqueueStoreWriteback(tx: Tx, documentId: string): Promise<void> {
  const [link] = await tx.select({ id: storeDocuments.documentId }).from(storeDocuments).where(eq(storeDocuments.documentId, documentId));
  if (link) await enqueue(tx, 'store_writeback', { documentId });
}

/** Updates fields without a status change (references, UPO, PDF); `updated` moves too. One statement: no transaction needed. */
export async function patchDocument(tx: DbOrTx, id: string, patch: DocumentPatch): Promise<void> {
  await tx
    .update(documents)
    .set({ ...patch, updatedAt: nextUpdatedAt() })
    .where(eq(documents.id, id));
}
