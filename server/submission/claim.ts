import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { config } from '@/server/config';
import type { DbOrTx, Tx } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import type { DocumentRow } from '@/server/documents/document-row';
import { nextUpdatedAt } from '@/server/documents/patch-document';
import { transition } from '@/server/documents/transition';
import { isInLiveBatch } from './batch-state';

/** A document a send step means to upload: its XML and hash, and the state the step read it in. */
export type ClaimRequest = {
  id: string;
  xml: string;
  xmlSha256: string;
  /** The claim holds only if the document is still exactly so: `queued` (or an abandoned claim's `sending`) with this session. */
  seen: Pick<DocumentRow, 'status' | 'ksefSessionRef' | 'updatedAt'>;
};

/**
 * How old another step's claim must be before a step may take it over (a crash left the document in `sending`
 * and KSeF did not have it): the claiming step's upload is over by then, since it starts at once after the claim,
 * waits for the throttle at most KSEF_THROTTLE_INLINE_WAIT_MS and each request gives up after KSEF_TIMEOUT_MS.
 */
export const claimTakeoverSeconds = (): number => Math.ceil((config().KSEF_THROTTLE_INLINE_WAIT_MS + 2 * config().KSEF_TIMEOUT_MS) / 1000);

/**
 * Invariant 4: the only way into an upload. In the caller's transaction, each document still as its step read it
 * (same status and session, no KSeF invoice reference) moves to `sending` with the session reference (null for a
 * batch until its session opens; the batch's membership row, written in the same transaction, names it), the XML
 * and its hash. The row locks make it a conditional update: a step that claims the same document at the same
 * moment waits, then finds it changed and leaves it out. A document already in `sending` is taken over only when
 * that claim is unchanged since the step read it, older than claimTakeoverSeconds and held by no live batch.
 * Only the returned documents may be uploaded, and only once this transaction committed. Oldest first, so that
 * concurrent claims lock in one order.
 */
export async function claimForSending(tx: Tx, requests: ClaimRequest[], sessionRef: string | null): Promise<DocumentRow[]> {
  if (requests.length === 0) return [];
  const byId = new Map(requests.map((r) => [r.id, r]));
  const locked = await tx
    .select({ doc: documents, abandoned: sql<boolean>`${documents.updatedAt} < now() - make_interval(secs => ${claimTakeoverSeconds()})` })
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
  for (const { doc, abandoned } of locked) {
    const wanted = byId.get(doc.id)!;
    if (doc.status !== wanted.seen.status || doc.ksefSessionRef !== wanted.seen.ksefSessionRef || doc.ksefInvoiceRef) continue;
    if (doc.status === 'sending') {
      const unchanged = doc.updatedAt.getTime() === wanted.seen.updatedAt.getTime();
      if (!unchanged || !abandoned || (await isInLiveBatch(tx, doc.id))) continue;
    } else if (doc.status !== 'queued') continue;
    claimed.push(await transition(tx, doc, 'sending', { ksefSessionRef: sessionRef, fa3Xml: wanted.xml, xmlSha256: wanted.xmlSha256, lastError: null }));
  }
  return claimed;
}

/**
 * KSeF refused the claimed document's upload because its session cannot take invoices (21184 and the other codes of
 * `new_session` in server/ksef/outcomes.ts): the claim moves to the new session, so the document never leaves
 * `sending` and no other step can claim it in between. Conditional like the claim itself: it holds only while the
 * document is exactly as this step claimed it (same session, no KSeF reference, not written since).
 */
export async function moveClaim(db: DbOrTx, claimed: DocumentRow, sessionRef: string): Promise<DocumentRow | undefined> {
  const [moved] = await db
    .update(documents)
    .set({ ksefSessionRef: sessionRef, updatedAt: nextUpdatedAt() })
    .where(
      and(
        eq(documents.id, claimed.id),
        eq(documents.status, 'sending'),
        eq(documents.ksefSessionRef, claimed.ksefSessionRef ?? ''),
        isNull(documents.ksefInvoiceRef),
        // JavaScript dates hold milliseconds, PostgreSQL microseconds
        sql`date_trunc('milliseconds', ${documents.updatedAt}) = ${claimed.updatedAt.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  return moved;
}
