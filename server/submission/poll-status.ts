import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { offlineAcceptancePatch } from '@/server/documents/offline';
import { transition } from '@/server/documents/transition';
import { randomToken } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import type { KsefClient } from '@/server/ksef/client';
import { KsefApiError, KsefUnavailableError } from '@/server/ksef/http';
import { getInvoiceStatus, getInvoiceUpo, type InvoiceStatus } from '@/server/ksef/online-session';
import { accessTokenFor, CredentialRefusedError } from './access-token';
import { pollDelayMs } from './backoff';
import { NOT_SENT, requeueDocument } from './document-outcomes';
import { findOurInvoice, GONE_NOT_FOUND, isGone } from './reconcile-gone';
import { loadKsefCredential } from '@/server/ksef-credentials/credentials';
import { ksefClientFor } from './ksef-clients';
import { loadDocument } from '@/server/documents/load-document';

const PROCESSING = new Set([100, 150]);
const DUPLICATE = 440;
/** "Operation cancelled by the system, try again" (OpenAPI invoice status table): KSeF kept nothing, so send again. */
export const CANCELLED_BY_SYSTEM = 550;

/**
 * ksef_status (DESIGN pipeline): polls KSeF for the sent invoice until it is final. Accepted: KSeF number and UPO
 * stored, event, PDF job. Rejected: ksef_rejected, or ksef_duplicate_number for 440 unless the original KSeF
 * holds is our own XML (same hash), which is reconciled to accepted with that number (invariant 4).
 */
export async function pollDocumentStatus(db: Db, documentId: string, poll: number): Promise<void> {
  const doc = await loadDocument(db, documentId);
  if (!doc || doc.status !== 'sending' || !doc.ksefInvoiceRef || !doc.ksefSessionRef) return;
  const scope = { accountId: doc.accountId, mode: doc.mode };
  // read only when the document is polled again: most are decided at their first poll
  const age = () => waitingMs(db, doc.id);
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return again(db, doc, poll, 30_000);
  const client = ksefClientFor(db, loaded);
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    const status = await getInvoiceStatus(client, token, doc.ksefSessionRef, doc.ksefInvoiceRef).catch((err: unknown) => {
      if (isGone(err)) return 'gone' as const;
      throw err;
    });
    if (status === 'gone') return settleGone(db, client, token, doc);
    if (PROCESSING.has(status.status.code)) return again(db, doc, poll, pollDelayMs(await age()));
    if (status.status.code === 200 && status.ksefNumber) {
      const upo = await getInvoiceUpo(client, token, doc.ksefSessionRef, doc.ksefInvoiceRef);
      return accept(db, doc, status.ksefNumber, upo);
    }
    if (status.status.code === CANCELLED_BY_SYSTEM) {
      return requeueDocument(db, doc, `KSeF cancelled the processing (${status.status.description})`, undefined, NOT_SENT);
    }
    if (status.status.code === DUPLICATE) {
      const original = status.status.extensions?.originalKsefNumber;
      if (original && (await isOurOwnXml(client, token, original, doc))) return accept(db, doc, original, null);
      return reject(db, doc, 'ksef_duplicate_number', status);
    }
    return reject(db, doc, 'ksef_rejected', status);
  } catch (err) {
    if (err instanceof KsefUnavailableError) return again(db, doc, poll, pollDelayMs(await age(), err.retryAfterSeconds));
    if (err instanceof CredentialRefusedError) return again(db, doc, poll, 60_000);
    throw err;
  }
}

/** The status is past KSeF's retention: the invoice metadata decides between accepted and sending again. */
export async function settleGone(db: Db, client: KsefClient, token: string, doc: DocumentRow): Promise<void> {
  const ours = await findOurInvoice(client, token, doc);
  if (ours) return accept(db, doc, ours.ksefNumber, ours.upoXml);
  await requeueDocument(db, doc, GONE_NOT_FOUND, undefined, NOT_SENT);
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

/** How long the document has been in `sending` (since its last move there). */
async function waitingMs(db: Db, documentId: string): Promise<number> {
  const [row] = await db.execute<{ ms: number | null }>(sql`
    select (extract(epoch from now() - max(at)) * 1000)::float8 as ms from document_transitions where document_id = ${documentId} and to_status = 'sending'`);
  return row?.ms ?? 0;
}

async function again(db: Db, doc: DocumentRow, poll: number, delayMs: number): Promise<void> {
  await enqueue(db, 'ksef_status', { documentId: doc.id, poll: poll + 1 }, { runAt: new Date(Date.now() + delayMs) });
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
    await enqueue(tx, 'pdf_render', { documentId: accepted.id });
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
