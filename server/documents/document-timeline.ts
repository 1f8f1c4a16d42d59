import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import {
  documentTransitions,
  events,
  files,
  storeDocuments,
  webhookDeliveries,
  webhookEndpoints,
  type DocumentStatus,
  type StoredError,
} from '@/server/db/schema';
import type { DocumentRow } from './document-row';

/**
 * One step of a document's life, read from where the pipeline already records it: status changes (the one into
 * `queued` that took the number carries it), the PDF file, the buyer's e-mail (its latest outcome only: a retry
 * overwrites a refusal), the write-back to the store, and each webhook delivery attempt.
 */
export type TimelineStep = { at: Date } & (
  | { kind: 'status'; from: DocumentStatus | null; to: DocumentStatus; error: StoredError | null; numbered: string | null }
  | { kind: 'pdf' }
  | { kind: 'mail'; outcome: 'sent' | 'failed' | 'retrying'; error: string | null }
  | { kind: 'store_note' | 'store_meta' }
  | { kind: 'store_gave_up'; error: string | null }
  | { kind: 'webhook'; eventType: string; url: string; attempt: number; statusCode: number | null; delivered: boolean; error: string | null }
);

/** Ties (one transaction's steps share its clock) keep the order the pipeline takes them in. */
const KIND_ORDER: Record<TimelineStep['kind'], number> = { status: 0, pdf: 1, mail: 2, store_note: 3, store_meta: 4, store_gave_up: 5, webhook: 6 };

/**
 * Every step of `doc` (as getDocument read it in the caller's scope), oldest first. `withDeliveries`: the webhook
 * attempts name the owner's endpoints and their answers, so only a member who may manage sees them
 * (server/accounts/permissions.ts).
 */
export async function listDocumentTimeline(db: DbOrTx, doc: DocumentRow, options: { withDeliveries: boolean }): Promise<TimelineStep[]> {
  const [transitions, pdf, store, deliveries] = await Promise.all([
    db
      .select({ from: documentTransitions.fromStatus, to: documentTransitions.toStatus, error: documentTransitions.error, at: documentTransitions.at })
      .from(documentTransitions)
      .where(eq(documentTransitions.documentId, doc.id))
      .orderBy(asc(documentTransitions.id)),
    doc.pdfFileId
      ? db
          .select({ at: files.createdAt })
          .from(files)
          .where(and(eq(files.id, doc.pdfFileId), eq(files.documentId, doc.id)))
      : [],
    db.select().from(storeDocuments).where(eq(storeDocuments.documentId, doc.id)),
    options.withDeliveries
      ? db
          .select({
            at: webhookDeliveries.at,
            eventType: events.type,
            url: webhookEndpoints.url,
            attempt: webhookDeliveries.attempt,
            statusCode: webhookDeliveries.statusCode,
            delivered: webhookDeliveries.delivered,
            error: webhookDeliveries.error,
          })
          .from(webhookDeliveries)
          .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
          .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
          .where(and(eq(events.documentId, doc.id), eq(events.accountId, doc.accountId), eq(events.mode, doc.mode), isNull(webhookDeliveries.testEventId)))
          .orderBy(asc(webhookDeliveries.id))
          .limit(200)
      : [],
  ]);

  const steps: TimelineStep[] = [];
  let numbered = false;
  for (const t of transitions) {
    // prepare takes the number and moves to queued in one transaction; a later return to queued keeps it
    const takesNumber: boolean = !numbered && t.to === 'queued' && doc.number !== null;
    numbered ||= takesNumber;
    steps.push({ kind: 'status', at: t.at, from: t.from, to: t.to, error: t.error, numbered: takesNumber ? doc.number : null });
  }
  for (const p of pdf) steps.push({ kind: 'pdf', at: p.at });
  if (doc.mailAt && doc.mailStatus && doc.mailStatus !== 'not_needed') {
    const outcome = doc.mailStatus === 'pending' ? 'retrying' : doc.mailStatus;
    steps.push({ kind: 'mail', at: doc.mailAt, outcome, error: doc.mailError });
  }
  for (const s of store) {
    if (s.noteAddedAt) steps.push({ kind: 'store_note', at: s.noteAddedAt });
    if (s.metaWrittenAt) steps.push({ kind: 'store_meta', at: s.metaWrittenAt });
    if (s.gaveUpAt) steps.push({ kind: 'store_gave_up', at: s.gaveUpAt, error: s.lastError });
  }
  for (const d of deliveries) steps.push({ kind: 'webhook', ...d, delivered: d.delivered === 'yes' });
  // a stable sort: steps of one kind keep their recorded order
  return steps.sort((a, b) => a.at.getTime() - b.at.getTime() || KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
}
