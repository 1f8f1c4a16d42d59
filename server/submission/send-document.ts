import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { patchDocument } from '@/server/documents/patch-document';
import { transition } from '@/server/documents/transition';
import { enqueue } from '@/server/jobs/enqueue';
import { KsefApiError, KsefUnavailableError } from '@/server/ksef/http';
import { listSessionInvoices, sendInvoice } from '@/server/ksef/online-session';
import { accessTokenFor, CredentialRefusedError, forgetAccessToken } from './access-token';
import { firstPollAt, retryDelaySeconds } from './backoff';
import { isInLiveBatch } from './batch-state';
import { ensureDocumentXml } from './document-xml';
import { issueOffline } from './issue-offline';
import { claimForSending, claimTakeoverSeconds } from './claim';
import { enqueueSend, finishDocument, postponeDocument, requeueDocument, waitForCredentials } from './document-outcomes';
import { ksefClientFor } from './ksef-clients';
import { loadSendingScope } from './sending-scope';
import { onlineSessionFor, retireSession } from './online-session-store';
import { reconcileBatches, unfinishedBatches } from './reconcile-batches';
import { sendQueuedInBatch } from './send-batch';
import { settleIssueDate } from './settle-issue-date';
import { ksefLimitsFor } from './rate-limits';
import { BATCH_SESSION_REQUESTS, batchMax, type SendMode } from './send-mode';
import { limiterOf, peekWaitMs } from './throttle';
import { getSendDecision, logSendingStatus, type SendDecision } from './sending-status';
import { log } from '@/server/observability/log';
import { loadDocument } from '@/server/documents/load-document';
import { heldByOutage } from './outage-guard';

/** KSeF codes meaning "this session can no longer take invoices" (README §14): open a new one and retry. */
const SESSION_GONE = new Set([21173, 21180]);

/**
 * ksef_send (DESIGN pipeline). Waits for the original of a correction; needs credentials; settles any batch a
 * crash left unfinished (asking KSeF first); then sends the seller's queue: one batch session when documents
 * wait or the interactive window is nearly used, else this document interactively, its FA(3) built and checked
 * once, hash and session saved before sending (invariant 4). Every KSeF call goes through the seller's
 * throttle; a throttle wait or 429 keeps the document queued until Retry-After, KSeF down retries with backoff.
 * Before building or sending, P_1 is checked against `now`'s Warsaw day (planIssueDate): moved to today, or sent
 * with offlineMode true and its deadline recorded.
 */
export async function sendDocument(db: Db, documentId: string, now: Date = new Date()): Promise<void> {
  const doc = await loadDocument(db, documentId);
  if (!doc || (doc.status !== 'queued' && doc.status !== 'sending') || doc.ksefInvoiceRef) return;
  const scope = { accountId: doc.accountId, mode: doc.mode };

  let original: DocumentRow | null = null;
  if (doc.kind === 'correction') {
    original = (await loadDocument(db, doc.invoiceId!)) ?? null;
    if (!original || original.status === 'skipped' || original.status === 'error')
      return finishDocument(db, doc, 'skipped', documentError('original_not_invoiced'));
    if (original.status === 'rejected') return finishDocument(db, doc, 'skipped', documentError('original_rejected'));
    if (original.status !== 'accepted') return; // woken again when the original is final (wakeCorrections)
  }

  const settings = await loadSendingScope(db, scope);
  const seller = settings.seller;
  if (!seller) return finishDocument(db, doc, 'skipped', documentError('seller_not_configured'));
  // offline-first: the buyer gets the offline invoice before KSeF is even asked
  const offlineFirst = !doc.offlineKodIiUrl && settings.offline.policy === 'always';
  if (offlineFirst) await issueOffline(db, doc.id, new Date());
  // a total KSeF failure: nothing goes to KSeF until its notice ends (server/submission/outage-guard.ts, art. 106ng)
  if (await heldByOutage(db, doc.id, now)) return;
  const loaded = settings.credential;
  if (!loaded) return waitForCredentials(db, doc, 'ksef_not_connected');

  const unfinished = await unfinishedBatches(db, scope);
  if (unfinished.length === 0 && (await isInLiveBatch(db, doc.id))) return; // most jobs of a burst end here
  const client = ksefClientFor(db, loaded);
  let current = doc;
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    if (unfinished.length) {
      await reconcileBatches(db, unfinished, client, token);
      if (await isInLiveBatch(db, doc.id)) return;
    }
    // offline issuing (its XML, offlineMode) or settling a batch changed the document: read it again, else the
    // XML handed to the buyer would be built a second time
    if (offlineFirst || unfinished.length) {
      current = (await loadDocument(db, documentId))!;
      if (current.status !== 'queued' && current.status !== 'sending') return;
    }

    const decision = await getSendDecision(db, scope, settings.account);
    // offlineMode is per batch session; an offline document goes interactively, as a technical correction must
    const batchable = current.status === 'queued' && !current.ksefSessionRef && !current.offlineMode;
    const path = await sendPath(db, decision, batchable);
    logSendingStatus(scope, { ...decision, mode: path.mode }, { documentId });
    // both budgets spent: waited for here, before anything is recorded (no batch row for a session that cannot
    // open, no move to sending and back), and the job runs again, deciding afresh, when the first window frees
    if (path.waitMs > config().KSEF_THROTTLE_INLINE_WAIT_MS) return postponeDocument(db, current, Math.ceil(path.waitMs / 1000));
    if (path.mode === 'batch' && batchable) {
      const outcome = await sendQueuedInBatch(db, scope, client, token, seller, batchMax(), current.id, now);
      log.info(
        {
          outcome: outcome.kind,
          ...('documentIds' in outcome && { documents: outcome.documentIds.length }),
          ...('message' in outcome && { error: outcome.message }),
        },
        'ksef_batch',
      );
      if (outcome.kind === 'not_opened') {
        if (outcome.throttled) return postponeDocument(db, current, outcome.retryAfterSeconds ?? 1);
        return requeueDocument(db, current, outcome.message, outcome.retryAfterSeconds);
      }
      if (outcome.kind === 'unsure') return db.transaction((tx) => enqueueSend(tx, current, retryDelaySeconds(1, outcome.retryAfterSeconds)));
      // a document the batch left out (it goes offline, see ensureXml) continues here, interactively
      if (outcome.kind !== 'nothing' && !(outcome.kind === 'closed' && !outcome.documentIds.includes(current.id))) return;
      current = (await loadDocument(db, documentId))!;
      if (current.status !== 'queued' && current.status !== 'sending') return;
      if (await isInLiveBatch(db, current.id)) return; // another step's batch claimed it meanwhile
    }

    current = await settleIssueDate(db, current, now);
    if (!current.fa3Xml) {
      const built = await ensureDocumentXml(db, current, seller, original);
      if (built.error) return finishDocument(db, current, 'error', built.error);
      current = { ...current, fa3Xml: built.xml, xmlSha256: built.xmlSha256 };
    }

    if (current.ksefSessionRef && (await adoptEarlierSubmission(db, current, client, token))) return;
    const session = await onlineSessionFor(db, scope, client, token);
    const claim = { id: current.id, xml: current.fa3Xml!, xmlSha256: current.xmlSha256!, seen: current };
    const [claimed] = await db.transaction(async (tx) => {
      const won = await claimForSending(tx, [claim], session.referenceNumber);
      // a claim from before a crash, too fresh to take over: looked at again once its step has surely ended
      if (won.length === 0 && current.status === 'sending') await enqueueSend(tx, current, claimTakeoverSeconds());
      return won;
    });
    if (!claimed) return; // another step holds the claim and sends it (invariant 4)
    current = claimed;
    let sent: { invoiceReferenceNumber: string };
    try {
      sent = await sendInvoice(client, token, session, current.fa3Xml!, {
        offlineMode: current.offlineMode,
        hashOfCorrectedInvoice: current.correctedInvoiceHash,
      });
    } catch (err) {
      if (err instanceof KsefApiError && SESSION_GONE.has(err.code)) {
        await retireSession(db, session.referenceNumber);
        return requeueDocument(db, current, err.message, 0);
      }
      if (err instanceof KsefApiError && err.status === 401) {
        await forgetAccessToken(db, scope);
        return requeueDocument(db, current, err.message, 0);
      }
      throw err;
    }
    await db.transaction(async (tx) => {
      await patchDocument(tx, current.id, { ksefInvoiceRef: sent.invoiceReferenceNumber });
      await enqueue(tx, 'ksef_status', { documentId: current.id, poll: 0 }, { runAt: firstPollAt() });
    });
  } catch (err) {
    if (err instanceof CredentialRefusedError) return waitForCredentials(db, current, 'ksef_auth_failed', err.message);
    if (err instanceof KsefUnavailableError && err.status === 429) return postponeDocument(db, current, err.retryAfterSeconds ?? 1);
    if (err instanceof KsefUnavailableError) return requeueDocument(db, current, err.message, err.retryAfterSeconds);
    if (err instanceof KsefApiError)
      return finishDocument(
        db,
        current,
        'rejected',
        documentError('ksef_rejected', `${err.description}${err.details.length ? `: ${err.details.join('; ')}` : ''}`, err.code),
      );
    throw err;
  }
}

/**
 * A document with a session but no invoice reference may have reached KSeF before a crash: look for its hash in
 * that session and continue from there instead of sending twice.
 */
async function adoptEarlierSubmission(db: Db, doc: DocumentRow, client: Parameters<typeof listSessionInvoices>[0], token: string): Promise<boolean> {
  let invoices;
  try {
    invoices = await listSessionInvoices(client, token, doc.ksefSessionRef!);
  } catch (err) {
    if (err instanceof KsefApiError && err.status === 404) return false;
    throw err;
  }
  const found = invoices.find((i) => i.invoiceHash === doc.xmlSha256);
  if (!found) return false;
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    if (locked.ksefInvoiceRef) return;
    const moved = locked.status === 'sending' ? locked : await transition(tx, locked, 'sending', { lastError: null });
    await patchDocument(tx, moved.id, { ksefInvoiceRef: found.referenceNumber });
    await enqueue(tx, 'ksef_status', { documentId: moved.id, poll: 0 });
  });
  return true;
}

/** Time until a path's budget has room: a batch session's open and its close (each its own group), one invoiceSend otherwise. */
async function budgetWaitMs(db: Db, decision: SendDecision, mode: SendMode): Promise<number> {
  const key = { environment: decision.environment, context: decision.context ?? '-' };
  const limits = await ksefLimitsFor(db, decision.environment);
  if (mode === 'batch') {
    const [open, close] = await Promise.all([
      peekWaitMs(db, limiterOf(key, 'batchSession', 'batchSession'), limits.batchSession, BATCH_SESSION_REQUESTS),
      peekWaitMs(db, limiterOf(key, 'batchSessionClose', 'batchSessionClose'), limits.batchSessionClose, 1),
    ]);
    return Math.max(open, close);
  }
  return peekWaitMs(db, limiterOf(key, 'invoiceSend', 'invoiceSend'), limits.invoiceSend, 1);
}

/**
 * The path this run takes and how long it must wait for it: the chosen mode when its budget has room now, else
 * the other one if that has (a document waits only while both budgets are spent), else whichever frees first.
 */
async function sendPath(db: Db, decision: SendDecision, batchable: boolean): Promise<{ mode: SendMode; waitMs: number }> {
  const preferred = batchable ? decision.mode : 'interactive';
  const waitMs = await budgetWaitMs(db, decision, preferred);
  if (waitMs <= config().KSEF_THROTTLE_INLINE_WAIT_MS || !batchable) return { mode: preferred, waitMs };
  const other: SendMode = preferred === 'batch' ? 'interactive' : 'batch';
  const otherWaitMs = await budgetWaitMs(db, decision, other);
  return otherWaitMs < waitMs ? { mode: other, waitMs: otherWaitMs } : { mode: preferred, waitMs };
}
