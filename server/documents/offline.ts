import type { Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import type { OutageMode } from '@/server/outage/mode-names';
import { jpkMarkerOf } from '@/server/outage/mode-names';
import type { DocumentRow } from './document-row';
import { patchDocument, type DocumentPatch } from './patch-document';

/** What makes a document an offline one (issue 17; P_1 vs sending day of issue 13 calls this too). */
export type OfflineFacts = {
  /** When the invoice left the service outside KSeF (PDF and e-mail), or when it was first sent as offline. */
  issuedAt: Date;
  /** The sending deadline of its mode (server/outage/modes.ts): null while its notice has no end, or none at all. */
  deadline: Date | null;
  /** The outage mode it is issued in, offline24 by default, and the Ministry notice in force (server/outage/issue-terms.ts). */
  outageMode?: OutageMode;
  outageNoticeId?: number | null;
  /** KOD II as printed, when the service holds an Offline certificate. */
  kodIIUrl?: string | null;
};

/**
 * Marks a document offline in the caller's transaction: sent with offlineMode true from now on, and its deadline
 * watched (offline_deadline runs just after it). Calling it again keeps the first issue time and deadline and only
 * adds KOD II (the offline PDF handed over later).
 */
export async function markOffline(tx: Tx, doc: DocumentRow, facts: OfflineFacts): Promise<void> {
  if (doc.offlineMode) {
    await patchDocument(tx, doc.id, { offlineKodIiUrl: doc.offlineKodIiUrl ?? facts.kodIIUrl ?? null });
    return;
  }
  await patchDocument(tx, doc.id, {
    offlineMode: true,
    offlineIssuedAt: facts.issuedAt,
    offlineDeadline: facts.deadline,
    offlineKodIiUrl: facts.kodIIUrl ?? null,
    outageMode: facts.outageMode ?? 'offline24',
    outageNoticeId: facts.outageNoticeId ?? null,
  });
  // a deadline not known yet is set, with its watch, when the notice ends (server/outage/notices.ts)
  if (facts.deadline) await enqueue(tx, 'offline_deadline', { documentId: doc.id }, { runAt: new Date(facts.deadline.getTime() + 1) });
}

/**
 * On acceptance of an offline document: the deadline verdict, and the offline PDF dropped so pdf_render prints the
 * KSeF number under KOD I (the token, hence pdf_url, stays).
 */
export function offlineAcceptancePatch(doc: DocumentRow, acceptedAt: Date): DocumentPatch {
  if (!doc.offlineMode) return {};
  return {
    offlineDeadlineMissed: doc.offlineDeadlineMissed || (doc.offlineDeadline !== null && acceptedAt > doc.offlineDeadline),
    pdfFileId: null,
  };
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

/** The API's additive `offline` field: null for documents issued in KSeF. */
export function serializeOffline(doc: DocumentRow) {
  if (!doc.offlineMode) return null;
  return {
    issued_at: doc.offlineIssuedAt ? unix(doc.offlineIssuedAt) : null,
    deadline: doc.offlineDeadline ? unix(doc.offlineDeadline) : null,
    deadline_missed: doc.offlineDeadlineMissed,
    technical_correction_of: doc.correctedInvoiceHash,
    mode: doc.outageMode ?? 'offline24',
    jpk_marker: doc.ksefNumber ? null : jpkMarkerOf(doc.outageMode),
  };
}
