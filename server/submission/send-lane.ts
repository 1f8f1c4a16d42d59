import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { loadDocument } from '@/server/documents/load-document';
import { accessTokenFor, CredentialRefusedError } from '@/server/ksef-connection/access-token';
import { ksefClientFor } from '@/server/ksef-connection/ksef-clients';
import { log } from '@/server/observability/log';
import type { Notice } from '@/server/outage/modes';
import { loadNotices } from '@/server/outage/notices';
import { retryDelaySeconds } from './backoff';
import { finishDocument, holdWithLane, notAnswered, requeueDocument, sendAgain, waitForCredentials } from './document-outcomes';
import { issueOffline } from './issue-offline';
import { dueInLane, scheduleLane, unsentOf } from './lane-queue';
import { heldByOutage } from './outage-guard';
import { reconcileBatches, unfinishedBatches } from './reconcile-batches';
import { sendQueuedInBatch } from './send-batch';
import { sendOnline, type Step, type Stop } from './send-document';
import { batchMax } from './send-mode';
import { sendPath } from './send-path';
import { getSendDecision, logSendingStatus } from './sending-status';
import { loadSendingScope, type SendingScope } from './sending-scope';

/**
 * Documents one run of a lane's send step takes, oldest first: what one online session sends before KSeF's minute
 * window (30 interactive sends in production) stops it anyway. A batch session takes the lane's whole queue
 * (send-batch.ts, up to batchMax); documents left over go to the lane's next run, enqueued at once.
 */
export const SEND_LANE_BOUND = 100;

/** A document of the run with what its online send needs (a correction's original). */
type Ready = { doc: DocumentRow; original: DocumentRow | null };

/**
 * ksef_send (DESIGN pipeline) for a seller lane: the lane's due documents (queued, and claims a crash abandoned),
 * oldest first, up to SEND_LANE_BOUND, each past its preconditions; any batch a crash left unfinished settled,
 * asking KSeF first; the path chosen once (one batch session for the lane's queue when it is deep or the
 * interactive window is nearly used, else online); then each remaining document online in one session (claim,
 * upload, reference: send-document.ts). Nothing is recorded while both of KSeF's budgets are spent: the job is
 * put off until the earliest window frees. Every run ends by enqueueing the lane's next run at its earliest due
 * document (scheduleLane), so a document in back-off waits while the others of its lane go.
 */
export async function sendLane(db: Db, lane: Scope, now: Date = new Date()): Promise<void> {
  const stop = await runLane(db, lane, now);
  await scheduleLane(db, lane, stop?.until);
}

async function runLane(db: Db, lane: Scope, now: Date): Promise<Stop | undefined> {
  const settings = await loadSendingScope(db, lane);
  const [unfinished, due, notices] = await Promise.all([unfinishedBatches(db, lane), dueInLane(db, lane, SEND_LANE_BOUND), loadNotices(db)]);
  const checked: Ready[] = [];
  for (const doc of due) {
    const ready = await checkPreconditions(db, doc, { ...settings, notices }, now);
    if (ready) checked.push(ready);
  }
  const { seller, credential } = settings;
  if (!seller || !credential || (checked.length === 0 && unfinished.length === 0)) return;
  const client = ksefClientFor(db, credential);
  const step: Step = { db, scope: lane, client, token: '', seller, now };
  try {
    step.token = await accessTokenFor(db, lane, client, credential);
  } catch (err) {
    if (!(err instanceof CredentialRefusedError)) throw err;
    for (const { doc } of checked) await waitForCredentials(db, doc, 'ksef_auth_failed', err.message);
    return;
  }
  if (unfinished.length) await reconcileBatches(db, unfinished, client, step.token);
  // offline issuing (its XML, offlineMode) or settling a batch changed documents: read again, else the XML handed to
  // the buyer would be built a second time
  let ready = await stillUnsent(db, checked);
  if (ready.length === 0) return;
  const decision = await getSendDecision(db, lane, settings.account);
  // offlineMode is per batch session; an offline document goes interactively, as a technical correction must
  const batchable = ready.some(({ doc }) => isBatchable(doc));
  const path = await sendPath(db, decision, batchable);
  logSendingStatus(lane, { ...decision, mode: path.mode }, { documents: ready.length });
  // both budgets spent: nothing is recorded (no batch row for a session that cannot open, no move to sending and
  // back), and the lane runs again, deciding afresh, when the first window frees
  if (path.waitMs > config().KSEF_THROTTLE_INLINE_WAIT_MS) return { until: new Date(Date.now() + path.waitMs) };
  if (path.mode === 'batch' && batchable) {
    const stop = await sendAsBatch(step, ready);
    if (stop) return stop;
    ready = await stillUnsent(db, ready);
  }
  return sendEachOnline(step, ready);
}

const isBatchable = (doc: DocumentRow) => doc.status === 'queued' && !doc.ksefSessionRef && !doc.offlineMode;

/**
 * What must hold before KSeF is asked: a correction's original accepted (else it ends skipped with its original),
 * the seller's data, credentials (the document waits for them). Offline-first issues the offline invoice here, so
 * the buyer has it before KSeF is asked; a total KSeF failure holds the document. Undefined: done with for now.
 */
async function checkPreconditions(db: Db, doc: DocumentRow, settings: SendingScope & { notices: Notice[] }, now: Date): Promise<Ready | undefined> {
  let original: DocumentRow | null = null;
  if (doc.kind === 'correction') {
    original = (await loadDocument(db, doc.invoiceId!)) ?? null;
    if (!original || original.status === 'skipped' || original.status === 'error')
      return void (await finishDocument(db, doc, 'skipped', documentError('original_not_invoiced')));
    if (original.status === 'rejected') return void (await finishDocument(db, doc, 'skipped', documentError('original_rejected')));
    if (original.status !== 'accepted') return; // woken again when the original is final (wakeCorrections)
  }
  if (!settings.seller) return void (await finishDocument(db, doc, 'skipped', documentError('seller_not_configured')));
  if (!doc.offlineKodIiUrl && settings.offline.policy === 'always') await issueOffline(db, doc.id, new Date());
  // a total KSeF failure: nothing goes to KSeF until its notice ends (server/submission/outage-guard.ts, art. 106ng)
  if (await heldByOutage(db, doc.id, settings.notices, now)) return;
  if (!settings.credential) return void (await waitForCredentials(db, doc, 'ksef_not_connected'));
  return { doc, original };
}

/** The run's documents as they are now, those still unsent and held by no live batch session (one read). */
async function stillUnsent(db: Db, ready: Ready[]): Promise<Ready[]> {
  const originals = new Map(ready.map((r) => [r.doc.id, r.original]));
  return (await unsentOf(db, [...originals.keys()])).map((doc) => ({ doc, original: originals.get(doc.id)! }));
}

/**
 * The lane's queue as one batch session. Undefined when the run goes on online with what the batch left out (a
 * document to go offline, a claim to take over), else what ends the run: KSeF's window (throttled), an outage
 * (the run's documents back off), a close that may not have reached KSeF (the next run reconciles it).
 */
async function sendAsBatch(step: Step, ready: Ready[]): Promise<Stop | undefined> {
  const { db, scope } = step;
  const outcome = await sendQueuedInBatch(db, scope, step.client, step.token, step.seller, batchMax(), step.now);
  log.info(
    {
      outcome: outcome.kind,
      ...('documentIds' in outcome && { documents: outcome.documentIds.length }),
      ...('message' in outcome && { error: outcome.message }),
    },
    'ksef_batch',
  );
  const retryAt = (retryAfterSeconds?: number) => new Date(Date.now() + retryDelaySeconds(1, retryAfterSeconds) * 1000);
  switch (outcome.kind) {
    case 'not_opened': {
      if (outcome.throttled) return { until: new Date(Date.now() + (outcome.retryAfterSeconds ?? 1) * 1000) };
      // the oldest counts the attempt and sets the wait; the others of the run wait as long (as after an online outage)
      const why = outcome.outage ? notAnswered(outcome.message) : sendAgain(outcome.message);
      const [first, ...rest] = ready.filter(({ doc }) => isBatchable(doc));
      if (!first) return { until: retryAt(outcome.retryAfterSeconds) };
      const until = new Date(Date.now() + retryDelaySeconds(first.doc.attempts + 1, outcome.retryAfterSeconds) * 1000);
      await requeueDocument(db, first.doc, why, outcome.retryAfterSeconds);
      for (const { doc } of rest) await holdWithLane(db, doc, why, until);
      return { until };
    }
    case 'unsure':
      return { until: retryAt(outcome.retryAfterSeconds) };
    case 'abandoned':
      return {};
    default:
      return undefined;
  }
}

/**
 * Each document online, in the lane's one session, until an answer ends the run. After an outage the run's other
 * documents wait as long, with the same reason: KSeF would not have answered them either, and each starts its
 * offline clock.
 */
async function sendEachOnline(step: Step, ready: Ready[]): Promise<Stop | undefined> {
  for (const [i, { doc, original }] of ready.entries()) {
    const stop = await sendOnline(step, doc, original);
    if (!stop) continue;
    const { outage, until } = stop;
    if (outage && until) for (const rest of ready.slice(i + 1)) await holdWithLane(step.db, rest.doc, outage, until);
    return stop;
  }
  return undefined;
}
