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
import { CredentialRefusedError, forgetAccessToken } from '@/server/ksef-connection/access-token';
import { log } from '@/server/observability/log';
import { firstPollAt, retryDelaySeconds } from './backoff';
import { ensureDocumentXml } from './document-xml';
import { claimForSending, moveClaim } from './claim';
import {
  enqueueStatus,
  finishDocument,
  notAnswered,
  postponeDocument,
  requeueDocument,
  sendAgain,
  waitForCredentials,
  type RequeueReason,
} from './document-outcomes';
import { onlineSessionFor, retireSession } from './online-session-store';
import { settleIssueDate } from './settle-issue-date';

/** What a send step carries from document to document of its lane: one access token, one online session. */
export type Step = { db: Db; scope: Scope; client: KsefClient; token: string; seller: Seller; now: Date };

/**
 * What ends a lane's run after a document's answer: KSeF's budget (`until` its window frees), an outage (`outage`:
 * the run's other documents are not answered either), a token or credential KSeF refused. Undefined: the next
 * document of the run goes on.
 */
export type Stop = { until?: Date; outage?: RequeueReason };

/**
 * The online path of one document, in the lane's online session: P_1 settled, FA(3) built once, an earlier
 * submission adopted, else the claim (invariant 4), the upload and its reference with the status job. Whatever KSeF
 * answers is carried out by onKsefAnswer.
 */
export async function sendOnline(step: Step, doc: DocumentRow, original: DocumentRow | null): Promise<Stop | undefined> {
  const { db, scope, client, token } = step;
  let current = doc;
  try {
    current = await settleIssueDate(db, doc, step.now);
    if (!current.fa3Xml) {
      const built = await ensureDocumentXml(db, current, step.seller, original);
      if (built.error) return void (await finishDocument(db, current, 'error', built.error));
      current = { ...current, fa3Xml: built.xml, xmlSha256: built.xmlSha256 };
    }
    if (current.ksefSessionRef && (await adoptEarlierSubmission(db, current, client, token))) return;
    const session = await onlineSessionFor(db, scope, client, token);
    const claimed = await claimOnline(db, current, session.referenceNumber);
    if (!claimed) return; // another step holds the claim and sends it (invariant 4); the lane looks again after the takeover age
    current = claimed;
    return await upload(step, claimed, session, SESSION_CHANGES);
  } catch (err) {
    return onKsefAnswer(db, current, err);
  }
}

/** How many new sessions one step opens for a document whose session KSeF refused (21184 and the like). */
const SESSION_CHANGES = 1;

/**
 * Uploads the claimed document in `session`. When KSeF says the session cannot take it (the outcome table's
 * `new_session`), the session is retired and the claim moves to a new one (moveClaim: the document stays claimed,
 * KSeF received nothing), up to `changes` times; any other answer is carried out by onKsefAnswer.
 */
async function upload(step: Step, claimed: DocumentRow, session: OnlineSession, changes: number): Promise<Stop | undefined> {
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
    return upload(step, moved, next, changes - 1);
  }
}

/** The claim (invariant 4) for the online session. */
async function claimOnline(db: Db, doc: DocumentRow, sessionRef: string): Promise<DocumentRow | undefined> {
  const claim = { id: doc.id, xml: doc.fa3Xml!, xmlSha256: doc.xmlSha256!, seen: doc };
  const [claimed] = await db.transaction((tx) => claimForSending(tx, [claim], sessionRef));
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
 * credentials; a dropped token is forgotten and the lane goes on with a new one; a session that cannot take the
 * document sends it again later; throttled waits for Retry-After; KSeF down retries with the back-off, and so does
 * a cancellation (550); a refusal rejects the document. Anything else is the job's failure.
 */
export async function onKsefAnswer(db: Db, doc: DocumentRow, err: unknown): Promise<Stop | undefined> {
  if (err instanceof CredentialRefusedError) {
    await waitForCredentials(db, doc, 'ksef_auth_failed', err.message);
    return {};
  }
  const outcome = requestOutcome(err);
  if (!outcome) throw err;
  const message = err instanceof Error ? err.message : String(err);
  switch (outcome.kind) {
    case 'reauthenticate':
      await forgetAccessToken(db, { accountId: doc.accountId, mode: doc.mode });
      await requeueDocument(db, doc, TOKEN_REFUSED, 0);
      return {};
    case 'new_session':
      return void (await requeueDocument(db, doc, sendAgain(message), 0));
    case 'throttled':
      await postponeDocument(db, doc, outcome.retryAfterSeconds);
      return { until: new Date(Date.now() + Math.max(1, outcome.retryAfterSeconds) * 1000) };
    case 'retry': {
      const why = outcome.cause === 'unavailable' ? notAnswered(outcome.message) : sendAgain(outcome.message);
      await requeueDocument(db, doc, why, outcome.retryAfterSeconds);
      // the lane backs off with the document that met the outage (requeueInTx's wait for its next attempt)
      return why.outage ? { until: new Date(Date.now() + retryDelaySeconds(doc.attempts + 1, outcome.retryAfterSeconds) * 1000), outage: why } : undefined;
    }
    case 'rejected':
      return void (await finishDocument(db, doc, 'rejected', documentError('ksef_rejected', outcome.message, outcome.code)));
    default:
      throw err;
  }
}

const TOKEN_REFUSED: RequeueReason = { outage: false, message: 'KSeF refused the access token; sending again with a new one.' };

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
