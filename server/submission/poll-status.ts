import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope } from '@/server/db/scope';
import { documents } from '@/server/db/schema';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { offlineAcceptancePatch } from '@/server/documents/offline';
import { transition } from '@/server/documents/transition';
import { randomToken } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import type { JobPayload } from '@/server/jobs/registry';
import type { KsefClient } from '@/server/ksef/client';
import { KsefApiError } from '@/server/ksef/http';
import { invoiceStatusOutcome, requestOutcome } from '@/server/ksef/outcomes';
import { getInvoiceStatus, getInvoiceUpo, listSessionInvoices, type InvoiceStatus } from '@/server/ksef/online-session';
import { accessTokenFor, CredentialRefusedError, forgetAccessToken } from '@/server/ksef-connection/access-token';
import { loadKsefCredential } from '@/server/ksef-connection/credentials';
import { ksefClientFor } from '@/server/ksef-connection/ksef-clients';
import { selectDocuments } from '@/server/documents/load-document';
import { NOT_SENT, requeueDocument, sendAgain } from './document-outcomes';
import { findOurInvoice, GONE_NOT_FOUND } from './reconcile-gone';
import { pollDelayMs } from './backoff';

/** From this many undecided documents on, a poll reads the session's invoice list (a few requests per 1,000) instead of one status each. */
const LIST_FROM = 4;

/**
 * ksef_status (DESIGN pipeline), one job per online session: polls KSeF for the session's sent documents until each
 * is final, through the outcome table (server/ksef/outcomes.ts). Few undecided documents are asked for one by one
 * (invoiceStatus budget), more through the session's invoice list, so that a burst costs a few requests, not one
 * per document. Accepted: KSeF number and UPO stored, event, PDF job. Rejected: ksef_rejected, or
 * ksef_duplicate_number for 440 unless the original KSeF holds is our own XML (same hash), reconciled to accepted
 * with that number (invariant 4). Cancelled by KSeF (550): queued again for a new session.
 */
export async function pollSessionStatus(db: Db, job: JobPayload<'ksef_status'>): Promise<void> {
  const scope = { accountId: job.accountId, mode: job.mode };
  const docs = await selectDocuments(
    db,
    and(inScope(documents, scope), eq(documents.status, 'sending'), eq(documents.ksefSessionRef, job.sessionRef), isNotNull(documents.ksefInvoiceRef)),
    asc(documents.seq),
  );
  if (docs.length === 0) return;
  // the newest document sets the pace: polled by its own age, the older ones are decided meanwhile or soon
  const age = Math.max(0, Date.now() - Math.max(...docs.map((d) => d.updatedAt.getTime())));
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return again(db, job, 30_000);
  const client = ksefClientFor(db, loaded);
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    const statuses = await statusesOf(client, token, job.sessionRef, docs).catch(goneOr);
    if (statuses === 'gone') {
      for (const doc of docs) await settleGone(db, client, token, doc);
      return;
    }
    let undecided = 0;
    for (const doc of docs) {
      const status = statuses.get(doc.ksefInvoiceRef!);
      if (!status || !(await decide(db, client, token, doc, status))) undecided++;
    }
    if (undecided > 0) return again(db, job, pollDelayMs(age));
  } catch (err) {
    if (err instanceof CredentialRefusedError) return again(db, job, 60_000);
    const outcome = requestOutcome(err);
    if (outcome?.kind === 'retry' || outcome?.kind === 'throttled') return again(db, job, pollDelayMs(age, outcome.retryAfterSeconds));
    if (outcome?.kind === 'reauthenticate') {
      await forgetAccessToken(db, scope);
      return again(db, job, 0);
    }
    throw err;
  }
}

/** KSeF's status of each document, by invoice reference. */
async function statusesOf(client: KsefClient, token: string, sessionRef: string, docs: DocumentRow[]): Promise<Map<string, InvoiceStatus>> {
  if (docs.length < LIST_FROM) {
    const one = await Promise.all(docs.map((d) => getInvoiceStatus(client, token, sessionRef, d.ksefInvoiceRef!)));
    return new Map(one.map((s, i) => [docs[i]!.ksefInvoiceRef!, s]));
  }
  return new Map((await listSessionInvoices(client, token, sessionRef)).map((s) => [s.referenceNumber, s]));
}

/** Carries out one document's status; false while KSeF still processes it. */
async function decide(db: Db, client: KsefClient, token: string, doc: DocumentRow, status: InvoiceStatus): Promise<boolean> {
  const outcome = invoiceStatusOutcome(status.status, status.ksefNumber);
  switch (outcome.kind) {
    case 'processing':
      return false;
    case 'accepted':
      await accept(db, doc, status.ksefNumber!, await getInvoiceUpo(client, token, doc.ksefSessionRef!, doc.ksefInvoiceRef!));
      return true;
    case 'duplicate': {
      const original = status.status.extensions?.originalKsefNumber;
      if (original && (await isOurOwnXml(client, token, original, doc))) await accept(db, doc, original, null);
      else await reject(db, doc, 'ksef_duplicate_number', status);
      return true;
    }
    case 'retry': // KSeF cancelled the invoice's processing: it is sent again, in a new session
      await requeueDocument(db, doc, sendAgain(outcome.message), undefined, NOT_SENT);
      return true;
    default:
      await reject(db, doc, 'ksef_rejected', status);
      return true;
  }
}

/** A status past KSeF's retention (410) becomes 'gone'; any other failure goes on. */
export function goneOr(err: unknown): 'gone' {
  if (requestOutcome(err)?.kind === 'gone') return 'gone';
  throw err;
}

/** The status is past KSeF's retention: the invoice metadata decides between accepted and sending again. */
export async function settleGone(db: Db, client: KsefClient, token: string, doc: DocumentRow): Promise<void> {
  const ours = await findOurInvoice(client, token, doc);
  if (ours) return accept(db, doc, ours.ksefNumber, ours.upoXml);
  await requeueDocument(db, doc, sendAgain(GONE_NOT_FOUND), undefined, NOT_SENT);
}

export async function isOurOwnXml(client: KsefClient, token: string, ksefNumber: string, doc: DocumentRow): Promise<boolean> {
  try {
    const res = await client.http.send({ method: 'GET', path: `/invoices/ksef/${ksefNumber}`, bearer: token, headers: { accept: 'application/xml' } });
    return res.headers.get('x-ms-meta-hash') === doc.xmlSha256;
  } catch (err) {
    if (err instanceof KsefApiError) return false;
    throw err;
  }
}

async function again(db: Db, job: JobPayload<'ksef_status'>, delayMs: number): Promise<void> {
  await enqueue(db, 'ksef_status', { ...job, poll: job.poll + 1 }, { runAt: new Date(Date.now() + delayMs) });
}

export async function accept(db: Db, doc: DocumentRow, ksefNumber: string, upoXml: string | null, patch: { ksefInvoiceRef?: string } = {}): Promise<void> {
  await withLockedDocument(db, doc.id, ['sending'], async (tx, locked) => {
    // the buyer's link exists from acceptance on, so the accepted event and its webhooks carry pdf_url (/d/{token} renders on demand)
    const pdfToken = locked.pdfToken ?? randomToken(128);
    const accepted = await transition(tx, locked, 'accepted', {
      ...patch,
      ...offlineAcceptancePatch(locked, new Date()),
      ksefNumber,
      upoXml,
      lastError: null,
      pdfToken,
    });
    await enqueue(tx, 'pdf_render', { accountId: accepted.accountId, mode: accepted.mode });
  });
}

export async function reject(
  db: Db,
  doc: DocumentRow,
  code: 'ksef_rejected' | 'ksef_duplicate_number',
  status: InvoiceStatus,
  patch: { ksefInvoiceRef?: string } = {},
): Promise<void> {
  const details = status.status.details?.length ? `: ${status.status.details.join('; ')}` : '';
  await withLockedDocument(db, doc.id, ['sending'], async (tx, locked) => {
    await transition(tx, locked, 'rejected', {
      ...patch,
      lastError: documentError(code, `${status.status.description}${details}`, status.status.code),
    });
  });
}
