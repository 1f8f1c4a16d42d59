import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { patchDocument } from '@/server/documents/patch-document';
import { transition } from '@/server/documents/transition';
import type { Scope } from '@/server/db/scope';
import type { KsefClient } from '@/server/ksef/client';
import type { Seller } from '@/server/ksef/fa3/parts';
import { KsefApiError } from '@/server/ksef/http';
import { requestOutcome } from '@/server/ksef/outcomes';
import { listSessionInvoices, sendInvoice, type OnlineSession } from '@/server/ksef/online-session';
import { accessTokenFor, CredentialRefusedError, forgetAccessToken } from '@/server/ksef-connection/access-token';
import { firstPollAt, retryDelaySeconds } from './backoff';
import { isInLiveBatch } from './batch-state';
import { ensureDocumentXml } from './document-xml';
import { issueOffline } from './issue-offline';
import { heldByOutage } from './outage-guard';
import { claimForSending, claimTakeoverSeconds, moveClaim } from './claim';
import { enqueueSend, enqueueStatus, finishDocument, postponeDocument, requeueDocument, waitForCredentials } from './document-outcomes';
import { ksefClientFor } from '@/server/ksef-connection/ksef-clients';
import { loadSendingScope } from './sending-scope';
import { onlineSessionFor, retireSession } from './online-session-store';
import { reconcileBatches, unfinishedBatches } from './reconcile-batches';
import { sendQueuedInBatch } from './send-batch';
import { settleIssueDate } from './settle-issue-date';
import { ksefLimitsFor } from '@/server/ksef-connection/rate-limits';
import { BATCH_SESSION_REQUESTS, batchMax, type SendMode } from './send-mode';
import { limiterOf, peekWaitMs } from '@/server/ksef-connection/throttle';
import { getSendDecision, logSendingStatus, type SendDecision } from './sending-status';
import { log } from '@/server/observability/log';
import { loadDocument } from '@/server/documents/load-document';

/**
 * ksef_send (DESIGN pipeline), as named steps: the document's preconditions (original, seller, offline-first,
 * credentials); any batch a crash left unfinished settled, asking KSeF first; the path (one batch session for the
 * seller's queue when documents wait or the interactive window is nearly used, else this document online); then
 * online: P_1 settled against `now`'s Warsaw day, FA(3) built and checked once, an earlier submission adopted, the
 * claim (invariant 4), the upload and its reference with the status job. Every KSeF call goes through the seller's
 * throttle; whatever KSeF answers is carried out by `onKsefAnswer` from the one table of server/ksef/outcomes.ts.
 */
export async function sendDocument(db: Db, documentId: string, now: Date = new Date()): Promise<void> {
  const doc = await loadDocument(db, documentId);
  if (!doc || !isUnsent(doc)) return;
  const ready = await checkPreconditions(db, doc, now);
  if (!ready) return;
  const { scope, settings, original, offlineFirst } = ready;
  const unfinished = await unfinishedBatches(db, scope);
  if (unfinished.length === 0 && (await isInLiveBatch(db, doc.id))) return; // most jobs of a burst end here
  const client = ksefClientFor(db, settings.credential);
  const step: Step = { db, scope, client, token: '', seller: settings.seller, now };
  let current = doc;
  try {
    step.token = await accessTokenFor(db, scope, client, settings.credential);
    if (unfinished.length) {
      await reconcileBatches(db, unfinished, client, step.token);
      if (await isInLiveBatch(db, doc.id)) return;
    }
    // offline issuing (its XML, offlineMode) or settling a batch changed the document: read it again, else the
    // XML handed to the buyer would be built a second time
    if (offlineFirst || unfinished.length) {
      current = (await loadDocument(db, documentId))!;
      if (!isUnsent(current)) return;
    }
    const online = await sendAsBatchFirst(step, current, settings.account);
    if (!online) return;
    current = online;
    await sendOnline(step, current, original);
  } catch (err) {
    await onKsefAnswer(db, current, err);
  }
}

type Step = { db: Db; scope: Scope; client: KsefClient; token: string; seller: Seller; now: Date };

const isUnsent = (doc: DocumentRow) => (doc.status === 'queued' || doc.status === 'sending') && !doc.ksefInvoiceRef;

/**
 * What must hold before KSeF is asked: a correction's original accepted (it waits, or ends skipped with its
 * original), the seller's data, credentials (the document waits for them). Offline-first issues the offline
 * invoice here, so the buyer has it before KSeF is asked. Undefined: the document is done with for now.
 */
async function checkPreconditions(db: Db, doc: DocumentRow, now: Date) {
  const scope = { accountId: doc.accountId, mode: doc.mode };
  let original: DocumentRow | null = null;
  if (doc.kind === 'correction') {
    original = (await loadDocument(db, doc.invoiceId!)) ?? null;
    if (!original || original.status === 'skipped' || original.status === 'error')
      return void (await finishDocument(db, doc, 'skipped', documentError('original_not_invoiced')));
    if (original.status === 'rejected') return void (await finishDocument(db, doc, 'skipped', documentError('original_rejected')));
    if (original.status !== 'accepted') return; // woken again when the original is final (wakeCorrections)
  }
  const settings = await loadSendingScope(db, scope);
  const { seller, credential } = settings;
  if (!seller) return void (await finishDocument(db, doc, 'skipped', documentError('seller_not_configured')));
  const offlineFirst = !doc.offlineKodIiUrl && settings.offline.policy === 'always';
  if (offlineFirst) await issueOffline(db, doc.id, new Date());
  // a total KSeF failure: nothing goes to KSeF until its notice ends (server/submission/outage-guard.ts, art. 106ng)
  if (await heldByOutage(db, doc.id, now)) return;
  if (!credential) return void (await waitForCredentials(db, doc, 'ksef_not_connected'));
  return { scope, original, offlineFirst, settings: { ...settings, seller, credential } };
}

/**
 * The path of this run: when a batch is the way (and the document may go in one), the seller's queue goes as one
 * batch session. Returns the document when it goes online (interactive path, or a batch left it out), undefined
 * when this run is over (sent in the batch, postponed, requeued).
 */
async function sendAsBatchFirst(step: Step, doc: DocumentRow, account: Parameters<typeof getSendDecision>[2]): Promise<DocumentRow | undefined> {
  const { db, scope } = step;
  const decision = await getSendDecision(db, scope, account);
  // offlineMode is per batch session; an offline document goes interactively, as a technical correction must
  const batchable = doc.status === 'queued' && !doc.ksefSessionRef && !doc.offlineMode;
  const path = await sendPath(db, decision, batchable);
  logSendingStatus(scope, { ...decision, mode: path.mode }, { documentId: doc.id });
  // both budgets spent: waited for here, before anything is recorded (no batch row for a session that cannot
  // open, no move to sending and back), and the job runs again, deciding afresh, when the first window frees
  if (path.waitMs > config().KSEF_THROTTLE_INLINE_WAIT_MS) return void (await postponeDocument(db, doc, Math.ceil(path.waitMs / 1000)));
  if (path.mode !== 'batch' || !batchable) return doc;
  const outcome = await sendQueuedInBatch(db, scope, step.client, step.token, step.seller, batchMax(), doc.id, step.now);
  log.info(
    {
      outcome: outcome.kind,
      ...('documentIds' in outcome && { documents: outcome.documentIds.length }),
      ...('message' in outcome && { error: outcome.message }),
    },
    'ksef_batch',
  );
  if (outcome.kind === 'not_opened') {
    if (outcome.throttled) return void (await postponeDocument(db, doc, outcome.retryAfterSeconds ?? 1));
    return void (await requeueDocument(db, doc, outcome.message, outcome.retryAfterSeconds));
  }
  if (outcome.kind === 'unsure') return void (await db.transaction((tx) => enqueueSend(tx, doc, retryDelaySeconds(1, outcome.retryAfterSeconds))));
  // a document the batch left out (it goes offline, see ensureXml) continues here, interactively
  if (outcome.kind !== 'nothing' && !(outcome.kind === 'closed' && !outcome.documentIds.includes(doc.id))) return;
  const again = (await loadDocument(db, doc.id))!;
  if (!isUnsent(again)) return;
  if (await isInLiveBatch(db, again.id)) return; // another step's batch claimed it meanwhile
  return again;
}

/** The online path: P_1 settled, FA(3) built once, an earlier submission adopted, else claim, upload, reference. */
async function sendOnline(step: Step, doc: DocumentRow, original: DocumentRow | null): Promise<void> {
  const { db, scope, client, token } = step;
  let current = await settleIssueDate(db, doc, step.now);
  if (!current.fa3Xml) {
    const built = await ensureDocumentXml(db, current, step.seller, original);
    if (built.error) return finishDocument(db, current, 'error', built.error);
    current = { ...current, fa3Xml: built.xml, xmlSha256: built.xmlSha256 };
  }
  if (current.ksefSessionRef && (await adoptEarlierSubmission(db, current, client, token))) return;
  const session = await onlineSessionFor(db, scope, client, token);
  const claimed = await claimOnline(db, current, session.referenceNumber);
  if (!claimed) return; // another step holds the claim and sends it (invariant 4)
  await upload(step, claimed, session, SESSION_CHANGES);
}

/** How many new sessions one step opens for a document whose session KSeF refused (21184 and the like). */
const SESSION_CHANGES = 1;

/**
 * Uploads the claimed document in `session`. When KSeF says the session cannot take it (the outcome table's
 * `new_session`), the session is retired and the claim moves to a new one (moveClaim: the document stays claimed,
 * KSeF received nothing), up to `changes` times; any other answer is carried out by onKsefAnswer.
 */
async function upload(step: Step, claimed: DocumentRow, session: OnlineSession, changes: number): Promise<void> {
  const { db, scope, client, token } = step;
  try {
    const sent = await sendInvoice(client, token, session, claimed.fa3Xml!, {
      offlineMode: claimed.offlineMode,
      hashOfCorrectedInvoice: claimed.correctedInvoiceHash,
    });
    await recordSent(db, claimed, sent.invoiceReferenceNumber);
  } catch (err) {
    if (requestOutcome(err)?.kind !== 'new_session') return onKsefAnswer(db, claimed, err);
    await retireSession(db, session.referenceNumber);
    const next = changes > 0 ? await onlineSessionFor(db, scope, client, token) : undefined;
    const moved = next && (await moveClaim(db, claimed, next.referenceNumber));
    if (!next || !moved) return onKsefAnswer(db, claimed, err);
    log.info({ documentId: claimed.id, from: session.referenceNumber, to: next.referenceNumber }, 'ksef_session_changed');
    await upload(step, moved, next, changes - 1);
  }
}

/** The claim (invariant 4) for the online session; a fresh claim of another step's is looked at again later. */
async function claimOnline(db: Db, doc: DocumentRow, sessionRef: string): Promise<DocumentRow | undefined> {
  const claim = { id: doc.id, xml: doc.fa3Xml!, xmlSha256: doc.xmlSha256!, seen: doc };
  const [claimed] = await db.transaction(async (tx) => {
    const won = await claimForSending(tx, [claim], sessionRef);
    // a claim from before a crash, too fresh to take over: looked at again once its step has surely ended
    if (won.length === 0 && doc.status === 'sending') await enqueueSend(tx, doc, claimTakeoverSeconds());
    return won;
  });
  return claimed;
}

/** KSeF took the upload: its reference and its session's status job commit together (invariant 2). */
async function recordSent(db: Db, doc: DocumentRow, invoiceRef: string): Promise<void> {
  await db.transaction(async (tx) => {
    await patchDocument(tx, doc.id, { ksefInvoiceRef: invoiceRef });
    await enqueueStatus(tx, doc, firstPollAt());
  });
}

/**
 * A failed step carried out by the outcome table (server/ksef/outcomes.ts): a refused credential waits for new
 * credentials; a retired session or a dropped token sends again at once; throttled waits for Retry-After; KSeF
 * down retries with the back-off; a refusal rejects the document. Anything else is the job's failure.
 */
async function onKsefAnswer(db: Db, doc: DocumentRow, err: unknown): Promise<void> {
  if (err instanceof CredentialRefusedError) return waitForCredentials(db, doc, 'ksef_auth_failed', err.message);
  const outcome = requestOutcome(err);
  if (!outcome) throw err;
  const message = err instanceof Error ? err.message : String(err);
  switch (outcome.kind) {
    case 'reauthenticate':
      await forgetAccessToken(db, { accountId: doc.accountId, mode: doc.mode });
      return requeueDocument(db, doc, message, 0);
    case 'new_session':
      return requeueDocument(db, doc, message, 0);
    case 'throttled':
      return postponeDocument(db, doc, outcome.retryAfterSeconds);
    case 'retry':
      return requeueDocument(db, doc, outcome.message, outcome.retryAfterSeconds);
    case 'rejected':
      return finishDocument(db, doc, 'rejected', documentError('ksef_rejected', outcome.message, outcome.code));
    default:
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
    await enqueueStatus(tx, moved);
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
