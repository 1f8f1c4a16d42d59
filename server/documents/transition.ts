import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { documents, documentTransitions, type DocumentStatus, type StoredError } from '../db/schema';
import { recordEvent } from '../events/record-event';
import type { DocumentRow } from './document-row';

/** The moves of spec section 3; anything else is a bug and throws. */
const NEXT: Record<DocumentStatus, readonly DocumentStatus[]> = {
  pending: ['queued', 'skipped', 'waiting_for_plan_limit', 'error'],
  waiting_for_plan_limit: ['queued', 'skipped'],
  queued: ['queued', 'sending', 'skipped', 'error'],
  sending: ['sending', 'queued', 'accepted', 'rejected', 'error'],
  accepted: [],
  rejected: [],
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
  const [updated] = await tx
    .update(documents)
    .set({ ...patch, status: to, updatedAt: sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')` })
    .where(eq(documents.id, doc.id))
    .returning();
  if (!updated) throw new Error(`document ${doc.id} vanished`);
  const error = (patch.lastError ?? null) as StoredError | null;
  if (doc.status !== to || error) {
    await tx.insert(documentTransitions).values({ documentId: doc.id, fromStatus: doc.status, toStatus: to, error });
  }
  const outcome = FINAL_EVENT[to];
  if (outcome) await recordEvent(tx, updated, `${updated.kind}.${outcome}`);
  return updated;
}

/** Updates fields without a status change (references, UPO, PDF); `updated` moves too. */
export async function patchDocument(tx: Tx, id: string, patch: DocumentPatch): Promise<void> {
  await tx
    .update(documents)
    .set({ ...patch, updatedAt: sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')` })
    .where(eq(documents.id, id));
}
