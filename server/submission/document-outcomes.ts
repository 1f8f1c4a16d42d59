import type { Tx } from '@/server/db/client';
import type { Db } from '@/server/db/client';
import type { StoredError } from '@/server/db/schema';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { transition } from '@/server/documents/transition';
import { enqueue } from '@/server/jobs/enqueue';
import { retryDelaySeconds } from './backoff';

/** The document's send job, again, `delaySeconds` from now (one job per document: job key send:<id>). */
export const enqueueSend = (tx: Tx, doc: Pick<DocumentRow, 'id' | 'accountId' | 'mode'>, delaySeconds = 0) =>
  enqueue(
    tx,
    'ksef_send',
    { documentId: doc.id, accountId: doc.accountId, mode: doc.mode },
    {
      runAt: delaySeconds > 0 ? new Date(Date.now() + delaySeconds * 1000) : undefined,
    },
  );

/** The status job of the online session the document was sent in (one per session: job key status:<session>). */
export const enqueueStatus = (tx: Tx, doc: Pick<DocumentRow, 'accountId' | 'mode' | 'ksefSessionRef'>, runAt?: Date) =>
  enqueue(tx, 'ksef_status', { accountId: doc.accountId, mode: doc.mode, sessionRef: doc.ksefSessionRef!, poll: 0 }, { runAt });

export async function finishDocument(db: Db, doc: DocumentRow, to: 'skipped' | 'rejected' | 'error', error: StoredError): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    await transition(tx, locked, to, { lastError: error });
  });
}

/** Credentials missing or refused: the document waits in queued until credentials are saved (no retry job). */
export async function waitForCredentials(db: Db, doc: DocumentRow, code: 'ksef_not_connected' | 'ksef_auth_failed', message?: string): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    if (locked.status === 'queued' && locked.lastError?.code === code) return;
    await transition(tx, locked, 'queued', { lastError: documentError(code, message) });
  });
}

/** What a document KSeF kept nothing of forgets of its last submission, so that the send step takes it again. */
export type NotSentPatch = { ksefSessionRef?: null; ksefInvoiceRef?: null };
export const NOT_SENT: Required<NotSentPatch> = { ksefSessionRef: null, ksefInvoiceRef: null };

/** Back to queued with ksef_unavailable and a new send job after the backoff (or KSeF's Retry-After). */
export async function requeueInTx(tx: Tx, locked: DocumentRow, message: string, retryAfterSeconds?: number, patch: NotSentPatch = {}): Promise<void> {
  const attempts = locked.attempts + 1;
  await transition(tx, locked, 'queued', { ...patch, lastError: documentError('ksef_unavailable', `KSeF did not answer (${message}); retrying.`), attempts });
  await enqueueSend(tx, locked, retryDelaySeconds(attempts, retryAfterSeconds));
  // the first failure starts the account's "issue offline when KSeF is not answering" clock (issue 17)
  if (locked.lastError?.code !== 'ksef_unavailable' && !locked.offlineKodIiUrl) await enqueue(tx, 'offline_issue', { documentId: locked.id });
}

export async function requeueDocument(db: Db, doc: DocumentRow, message: string, retryAfterSeconds?: number, patch: NotSentPatch = {}): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], (tx, locked) => requeueInTx(tx, locked, message, retryAfterSeconds, patch));
}

/**
 * The throttle (or a 429 that came anyway) says "not before Retry-After": the document waits in queued for its
 * turn. Not an outage, so no ksef_unavailable and no attempt counted.
 */
export async function postponeDocument(db: Db, doc: DocumentRow, retryAfterSeconds: number): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    if (locked.status === 'sending') await transition(tx, locked, 'queued', {});
    await enqueueSend(tx, locked, Math.max(1, retryAfterSeconds));
  });
}
