import { inArray } from 'drizzle-orm';
import type { Tx } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import type { DocumentRow } from '@/server/documents/document-row';
import { transition } from '@/server/documents/transition';

/** A document a send step means to upload: its XML and hash, and the state the step read it in. */
export type ClaimRequest = {
  id: string;
  xml: string;
  xmlSha256: string;
  /** The claim holds only if the document is still exactly so: `queued` (or a crash's `sending`) with this session. */
  seen: Pick<DocumentRow, 'status' | 'ksefSessionRef'>;
};

/**
 * Invariant 4: the only way into an upload. In the caller's transaction, each document still as its step read it
 * (same status and session, no KSeF invoice reference) moves to `sending` with the session reference (null for a
 * batch until its session opens; the batch's membership row, written in the same transaction, names it), the XML
 * and its hash. The row locks make it a conditional update: a step that claims the same document at the same
 * moment waits, then finds it changed and leaves it out. Only the returned documents may be uploaded, and only
 * once this transaction committed. Oldest first, so that concurrent claims lock in one order.
 */
export async function claimForSending(tx: Tx, requests: ClaimRequest[], sessionRef: string | null): Promise<DocumentRow[]> {
  if (requests.length === 0) return [];
  const byId = new Map(requests.map((r) => [r.id, r]));
  const locked = await tx
    .select()
    .from(documents)
    .where(
      inArray(
        documents.id,
        requests.map((r) => r.id),
      ),
    )
    .orderBy(documents.seq)
    .for('update');
  const claimed: DocumentRow[] = [];
  for (const doc of locked) {
    const wanted = byId.get(doc.id)!;
    if (doc.status !== wanted.seen.status || doc.ksefSessionRef !== wanted.seen.ksefSessionRef || doc.ksefInvoiceRef) continue;
    if (doc.status !== 'queued' && doc.status !== 'sending') continue;
    claimed.push(await transition(tx, doc, 'sending', { ksefSessionRef: sessionRef, fa3Xml: wanted.xml, xmlSha256: wanted.xmlSha256, lastError: null }));
  }
  return claimed;
}
