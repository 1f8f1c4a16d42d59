import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documents } from '../db/schema';
import { buildDocumentXml } from '../documents/build-document-xml';
import type { DocumentRow } from '../documents/document-row';
import { documentError } from '../documents/document-errors';
import { withLockedDocument } from '../documents/locked';
import { sellerOf } from '../documents/seller';
import { patchDocument, transition } from '../documents/transition';
import { wakeCorrections } from '../documents/wake-corrections';
import { AppError } from '../errors';
import { enqueue } from '../jobs/enqueue';
import { sha256Base64 } from '../ksef/crypto';
import { KsefApiError, KsefUnavailableError } from '../ksef/http';
import { listSessionInvoices, sendInvoice } from '../ksef/online-session';
import { validateXml } from '../ksef/xsd';
import { accessTokenFor, CredentialRefusedError, forgetAccessToken } from './access-token';
import { retryDelaySeconds } from './backoff';
import { loadKsefCredential, sendQueue } from './credentials';
import { ksefClientFor } from './ksef-clients';
import { onlineSessionFor, retireSession } from './online-session-store';

/** KSeF codes meaning "this session can no longer take invoices" (README §14): open a new one and retry. */
const SESSION_GONE = new Set([21173, 21180]);


/**
 * ksef_send (DESIGN pipeline). Waits for the original of a correction; needs credentials; builds and checks the
 * FA(3) once; saves hash and session before sending (invariant 4); after a crash, asks KSeF whether the hash is
 * already in the session before sending again. KSeF down leaves the document queued and retries with backoff.
 */
export async function sendDocument(db: Db, documentId: string): Promise<void> {
  const doc = await load(db, documentId);
  if (!doc || (doc.status !== 'queued' && doc.status !== 'sending') || doc.ksefInvoiceRef) return;
  const scope = { accountId: doc.accountId, mode: doc.mode };

  let original: DocumentRow | null = null;
  if (doc.kind === 'correction') {
    original = (await load(db, doc.invoiceId!)) ?? null;
    if (!original || original.status === 'skipped' || original.status === 'error') return finish(db, doc, 'skipped', documentError('original_not_invoiced'));
    if (original.status === 'rejected') return finish(db, doc, 'skipped', documentError('original_rejected'));
    if (original.status !== 'accepted') return; // woken again when the original is final (wakeCorrections)
  }

  const seller = await sellerOf(db, scope);
  if (!seller) return finish(db, doc, 'skipped', documentError('seller_not_configured'));
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return wait(db, doc, 'ksef_not_connected');

  let current = doc;
  if (!current.fa3Xml) {
    let xml: string;
    try {
      xml = await buildDocumentXml(db, current, seller, original);
    } catch (err) {
      if (err instanceof AppError) return finish(db, current, 'error', documentError('invoice_build_failed', err.message));
      throw err;
    }
    const check = validateXml(xml, 'fa3');
    if (!check.ok) return finish(db, current, 'error', documentError('invoice_schema_invalid', `FA(3) schema check failed: ${check.message}`));
    await db.transaction((tx) => patchDocument(tx, current.id, { fa3Xml: xml, xmlSha256: sha256Base64(Buffer.from(xml, 'utf8')) }));
    current = (await load(db, documentId))!;
  }

  const client = ksefClientFor(loaded.environment);
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    if (current.ksefSessionRef && (await adoptEarlierSubmission(db, current, client, token))) return;
    const session = await onlineSessionFor(db, scope, client, token);
    await db.transaction(async (tx) => {
      current = await transition(tx, current, 'sending', { ksefSessionRef: session.referenceNumber, lastError: null });
    });
    let sent: { invoiceReferenceNumber: string };
    try {
      sent = await sendInvoice(client, token, session, current.fa3Xml!);
    } catch (err) {
      if (err instanceof KsefApiError && SESSION_GONE.has(err.code)) {
        await retireSession(db, session.referenceNumber);
        return retry(db, current, 'ksef_unavailable', 0, err.message);
      }
      if (err instanceof KsefApiError && err.status === 401) {
        await forgetAccessToken(db, scope);
        return retry(db, current, 'ksef_unavailable', 0, err.message);
      }
      throw err;
    }
    await db.transaction(async (tx) => {
      await patchDocument(tx, current.id, { ksefInvoiceRef: sent.invoiceReferenceNumber });
      await enqueue(tx, 'ksef_status', { documentId: current.id, poll: 0 }, { jobKey: `status:${current.id}` });
    });
  } catch (err) {
    if (err instanceof CredentialRefusedError) return wait(db, current, 'ksef_auth_failed', err.message);
    if (err instanceof KsefUnavailableError) return retry(db, current, 'ksef_unavailable', err.retryAfterSeconds, err.message);
    if (err instanceof KsefApiError) return finish(db, current, 'rejected', documentError('ksef_rejected', `${err.description}${err.details.length ? `: ${err.details.join('; ')}` : ''}`, err.code));
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
    await enqueue(tx, 'ksef_status', { documentId: moved.id, poll: 0 }, { jobKey: `status:${moved.id}` });
  });
  return true;
}

async function load(db: Db, id: string): Promise<DocumentRow | undefined> {
  const [doc] = await db.select().from(documents).where(eq(documents.id, id));
  return doc;
}

async function finish(db: Db, doc: DocumentRow, to: 'skipped' | 'rejected' | 'error', error: ReturnType<typeof documentError>): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    const done = await transition(tx, locked, to, { lastError: error });
    if (done.kind === 'invoice') {
      await wakeCorrections(tx, done);
    }
  });
}

/** Credentials missing or refused: the document waits in queued until credentials are saved (no retry job). */
async function wait(db: Db, doc: DocumentRow, code: 'ksef_not_connected' | 'ksef_auth_failed', message?: string): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    if (locked.status === 'queued' && locked.lastError?.code === code) return;
    await transition(tx, locked, 'queued', { lastError: documentError(code, message) });
  });
}

/** KSeF unavailable: back to queued with ksef_unavailable and a new send job after the backoff. */
async function retry(db: Db, doc: DocumentRow, code: 'ksef_unavailable', retryAfterSeconds: number | undefined, message: string): Promise<void> {
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    const attempts = locked.attempts + 1;
    await transition(tx, locked, 'queued', { lastError: documentError(code, `KSeF did not answer (${message}); retrying.`), attempts });
    const delay = retryDelaySeconds(attempts, retryAfterSeconds);
    await enqueue(tx, 'ksef_send', { documentId: locked.id }, { jobKey: `send:${locked.id}`, queueName: sendQueue({ accountId: locked.accountId, mode: locked.mode }), runAt: new Date(Date.now() + delay * 1000) });
  });
}

