import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '@/server/db/client';
import { documents, documentTransitions, storeDocuments, type DocumentStatus, type StoredError } from '@/server/db/schema';
import { eventTypeFor } from '@/server/facts/event-types';
import { enqueue } from '@/server/jobs/enqueue';
import { reportFailure, type FailureKind } from '@/server/observability/failures';
import { metrics } from '@/server/observability/metrics';
import { recordDocumentEvent } from './record-document-event';
import type { DocumentRow } from './document-row';
import { DOCUMENT_COLUMNS, documentFromSql, selectDocuments } from './load-document';
import { wakeCorrections } from './wake-corrections';
import { nextUpdatedAt, type DocumentPatch } from './patch-document';

/** The moves of spec section 3; anything else is a bug and throws. */
const NEXT: Record<DocumentStatus, readonly DocumentStatus[]> = {
  pending: ['queued', 'skipped', 'waiting_for_plan_limit', 'error'],
  // error: checked again on release, with the release's issue date (what the send step will build)
  waiting_for_plan_limit: ['queued', 'skipped', 'error'],
  queued: ['queued', 'sending', 'skipped', 'error'],
  sending: ['sending', 'queued', 'accepted', 'rejected', 'error'],
  accepted: [],
  // only a technical correction: an offline document KSeF rejected for a technical reason is sent again (issue 17)
  rejected: ['queued'],
  // a retry after the cause was fixed (retry-document.ts): back to numbering, or to sending with the number kept
  skipped: ['pending', 'queued'],
  error: ['pending', 'queued'],
};

/** The failure a move reports (invariant 10): a final state other than accepted, or a wait with an error. */
function failureOf(to: DocumentStatus, error: StoredError | null): FailureKind | null {
  if (to === 'error') return 'document_error';
  if (to === 'rejected') return 'document_rejected';
  if (to === 'skipped') return 'document_skipped';
  return error ? 'document_delayed' : null;
}

/** An invoice's end: its corrections waiting in queued are woken (spec 3: they wait for their original). */
const ENDS_WAIT_OF_CORRECTIONS: readonly DocumentStatus[] = ['accepted', 'rejected', 'skipped', 'error'];

/**
 * Every status change goes through here: it checks the move, writes the timeline row and, for a final state,
 * the event and its webhook jobs, all in the caller's transaction (invariant 3); an invoice's end wakes its
 * waiting corrections. A same-status "move" records a new `last_error` on the timeline (queued → queued with
 * ksef_unavailable, for example). The update, its timeline row and (on acceptance) the store link are one
 * statement: every document makes about three moves, each a round trip fewer.
 */
export async function transition(tx: Tx, doc: DocumentRow, to: DocumentStatus, patch: DocumentPatch = {}): Promise<DocumentRow> {
  if (!NEXT[doc.status].includes(to)) throw new Error(`illegal move ${doc.status} → ${to} for ${doc.id}`);
  const error = (patch.lastError ?? null) as StoredError | null;
  const logged = doc.status !== to || error !== null;
  const update = tx
    .update(documents)
    .set({ ...patch, status: to, updatedAt: nextUpdatedAt() })
    .where(eq(documents.id, doc.id))
    .getSQL();
  const timeline = logged
    ? sql`, logged as (insert into ${documentTransitions} (document_id, from_status, to_status, error)
        select id, ${doc.status}::document_status, ${to}::document_status, ${error && JSON.stringify(error)}::jsonb from changed)`
    : sql``;
  const storeLink = to === 'accepted' ? sql`, exists (select 1 from ${storeDocuments} s where s.document_id = changed.id) as from_store` : sql``;
  const [raw] = await tx.execute<Record<string, unknown>>(
    sql`with changed as (${update} returning ${DOCUMENT_COLUMNS})${timeline} select changed.*${storeLink} from changed`,
  );
  if (!raw) throw new Error(`document ${doc.id} vanished`);
  const updated = documentFromSql(raw);
  if (logged) {
    // before the caller commits, as the count above: a rolled-back move leaves a line for a state that never was
    metrics().documentTransitions.inc({ from: doc.status, to });
    const failure = failureOf(to, error);
    if (failure) {
      const ids = { documentId: updated.id, accountId: updated.accountId, mode: updated.mode, documentKind: updated.kind };
      reportFailure(failure, { ...ids, from: doc.status, to, lastError: error });
    }
  }
  const eventType = eventTypeFor(updated.kind, to);
  const endsWait =
    updated.kind === 'invoice' && doc.status !== to && (ENDS_WAIT_OF_CORRECTIONS.includes(to) || (doc.number === null && updated.number !== null));
  const corrections =
    updated.kind === 'invoice' && (eventType || endsWait)
      ? await selectDocuments(tx, and(eq(documents.invoiceId, updated.id), eq(documents.kind, 'correction')), asc(documents.seq))
      : [];
  if (eventType) await recordDocumentEvent(tx, updated, eventType, corrections);
  if (endsWait) await wakeCorrections(tx, updated, corrections);
  // a document that came from a store connection is written back to its order once accepted (server/stores/writeback.ts)
  if (raw.from_store === true) await enqueue(tx, 'store_writeback', { documentId: updated.id });
  return updated;
}
