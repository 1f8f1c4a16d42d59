import { sql } from 'drizzle-orm';
import type { Tx } from '@/server/db/client';
import type { Db } from '@/server/db/client';
import type { StoredError } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { transition } from '@/server/documents/transition';
import { enqueue } from '@/server/jobs/enqueue';
import { jobKey } from '@/server/jobs/registry';
import { retryDelaySeconds } from './backoff';

/**
 * The send job of the document's seller lane (one per lane: job key send:<account>:<mode>), at `runAt` or now. A
 * lane job already waiting that runs no later is kept (the registry's `lane`), so a burst adds one row.
 */
export const enqueueSend = (tx: Tx | Db, lane: Scope, runAt?: Date) =>
  enqueue(tx, 'ksef_send', { accountId: lane.accountId, mode: lane.mode }, { runAt: runAt && runAt.getTime() > Date.now() ? runAt : undefined });

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
    await transition(tx, locked, 'queued', { lastError: documentError(code, message), sendAfter: null });
  });
}

/** What a document KSeF kept nothing of forgets of its last submission, so that the send step takes it again. */
export type NotSentPatch = { ksefSessionRef?: null; ksefInvoiceRef?: null };
export const NOT_SENT: Required<NotSentPatch> = { ksefSessionRef: null, ksefInvoiceRef: null };

/**
 * Why a document goes back to the queue: KSeF did not answer (an outage: it starts the offline clock), or KSeF
 * answered and asks for the invoice again (550, a status past retention without the invoice, a session that cannot
 * take it, a batch session that ended without it). Both are `ksef_unavailable` (spec: no answer, time-out or a code
 * without rejection) and both count an attempt, which spaces the sends.
 */
export type RequeueReason = { outage: boolean; message: string };
export const notAnswered = (detail: string): RequeueReason => ({ outage: true, message: `KSeF did not answer (${detail}); retrying.` });
export const sendAgain = (detail: string): RequeueReason => ({ outage: false, message: `KSeF asked for the invoice to be sent again (${detail}).` });

/** Back to queued with ksef_unavailable, not sent again before the back-off (or KSeF's Retry-After) is over. */
export async function requeueInTx(tx: Tx, locked: DocumentRow, why: RequeueReason, retryAfterSeconds?: number, patch: NotSentPatch = {}): Promise<void> {
  const attempts = locked.attempts + 1;
  const sendAfter = new Date(Date.now() + retryDelaySeconds(attempts, retryAfterSeconds) * 1000);
  await transition(tx, locked, 'queued', { ...patch, lastError: documentError('ksef_unavailable', why.message), attempts, sendAfter });
  await enqueueSend(tx, locked, sendAfter);
  if (why.outage && !locked.offlineKodIiUrl) await startOfflineClock(tx, locked.id);
}

/**
 * An outage starts the account's "issue offline when KSeF is not answering" clock (issue 17), unless one already
 * runs for the document: adding the job again would start the configured delay over.
 */
async function startOfflineClock(tx: Tx, documentId: string): Promise<void> {
  const key = jobKey('offline_issue', { documentId });
  const [running] = await tx.execute(sql`select 1 from graphile_worker.jobs where key = ${key}`);
  if (!running) await enqueue(tx, 'offline_issue', { documentId });
}

/**
 * KSeF did not answer another document of the lane's run: this one, not tried, waits as long (`until`) with the
 * same reason and starts its offline clock, without an attempt of its own (attempts count its own failures).
 */
export async function holdWithLane(db: Db, doc: DocumentRow, why: RequeueReason, until: Date): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued'], async (tx, locked) => {
    await transition(tx, locked, 'queued', { lastError: documentError('ksef_unavailable', why.message), sendAfter: until });
    if (why.outage && !locked.offlineKodIiUrl) await startOfflineClock(tx, locked.id);
  });
}

export async function requeueDocument(db: Db, doc: DocumentRow, why: RequeueReason, retryAfterSeconds?: number, patch: NotSentPatch = {}): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], (tx, locked) => requeueInTx(tx, locked, why, retryAfterSeconds, patch));
}

/**
 * The throttle (or a 429 that came anyway) says "not before Retry-After", or an outage notice holds the document:
 * it waits in queued until then. Not an outage of KSeF, so no ksef_unavailable and no attempt counted.
 */
export async function postponeDocument(db: Db, doc: DocumentRow, retryAfterSeconds: number): Promise<void> {
  const sendAfter = new Date(Date.now() + Math.max(1, retryAfterSeconds) * 1000);
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    await transition(tx, locked, 'queued', { sendAfter });
    await enqueueSend(tx, locked, sendAfter);
  });
}
