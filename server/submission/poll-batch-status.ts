import { eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { ksefBatches } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import type { KsefClient } from '@/server/ksef/client';
import { invoiceStatusOutcome, requestOutcome, sessionStatusOutcome } from '@/server/ksef/outcomes';
import { getInvoiceUpo, getSessionStatus, listSessionInvoices, type InvoiceStatus } from '@/server/ksef/online-session';
import { accessTokenFor, CredentialRefusedError } from '@/server/ksef-connection/access-token';
import { loadKsefCredential } from '@/server/ksef-connection/credentials';
import { ksefClientFor } from '@/server/ksef-connection/ksef-clients';
import { pollDelayMs } from './backoff';
import { batchDocuments } from './batch-state';
import { NOT_SENT, requeueDocument, sendAgain } from './document-outcomes';
import { accept, goneOr, isOurOwnXml, reject, settleGone } from './poll-status';

const UPO_CONCURRENCY = 16;
/** Recorded as the batch's session code when KSeF no longer keeps its status (410). */
const GONE = 410;

/**
 * ksef_batch_status: waits for the closed batch session to finish, then maps the session's invoice list back to
 * its documents by hash (KSeF numbers, UPOs from the pre-signed links, rejections, 440 reconciliation). A package
 * KSeF could not process at all sends its documents back to the queue.
 */
export async function pollBatchStatus(db: Db, batchId: string, poll: number): Promise<void> {
  const [batch] = await db.select().from(ksefBatches).where(eq(ksefBatches.id, batchId));
  if (!batch || batch.status !== 'closed' || !batch.referenceNumber) return;
  const scope = { accountId: batch.accountId, mode: batch.mode };
  // a closed batch's row is not written again until it is done: its updatedAt is the moment of the close
  const age = Date.now() - batch.updatedAt.getTime();
  const loaded = await loadKsefCredential(db, scope);
  if (!loaded) return again(db, batchId, poll, 30_000);
  const client = ksefClientFor(db, loaded);
  try {
    const token = await accessTokenFor(db, scope, client, loaded);
    const session = await getSessionStatus(client, token, batch.referenceNumber).catch(goneOr);
    if (session === 'gone') {
      const members = (await batchDocuments(db, batchId)).filter((m) => m.doc.status === 'sending' && m.doc.ksefSessionRef === batch.referenceNumber);
      for (const m of members) await settleGone(db, client, token, m.doc);
      return finish(db, batchId, GONE);
    }
    const code = session.status.code;
    const sessionOutcome = sessionStatusOutcome(code);
    if (sessionOutcome === 'processing') return again(db, batchId, poll, pollDelayMs(age));
    const members = (await batchDocuments(db, batchId)).filter((m) => m.doc.status === 'sending' && m.doc.ksefSessionRef === batch.referenceNumber);
    if (sessionOutcome === 'failed') {
      await finish(db, batchId, code);
      for (const m of members)
        await requeueDocument(
          db,
          m.doc,
          sendAgain(`batch session ${batch.referenceNumber} ended with ${code} ${session.status.description}`),
          undefined,
          NOT_SENT,
        );
      return;
    }
    const invoices = await listSessionInvoices(client, token, batch.referenceNumber);
    const byHash = new Map(invoices.map((i) => [i.invoiceHash, i]));
    let pending = 0;
    const accepted: { m: (typeof members)[number]; inv: InvoiceStatus }[] = [];
    for (const m of members) {
      const inv =
        byHash.get(m.doc.xmlSha256 ?? '') ?? invoices.find((i) => (i as InvoiceStatus & { invoiceFileName?: string | null }).invoiceFileName === m.fileName);
      if (!inv) {
        await requeueDocument(db, m.doc, sendAgain(`not in the invoice list of batch session ${batch.referenceNumber}`), undefined, NOT_SENT);
        continue;
      }
      const outcome = invoiceStatusOutcome(inv.status, inv.ksefNumber);
      if (outcome.kind === 'processing') pending++;
      else if (outcome.kind === 'accepted') accepted.push({ m, inv });
      else if (outcome.kind === 'duplicate') {
        const original = inv.status.extensions?.originalKsefNumber;
        if (original && (await isOurOwnXml(client, token, original, m.doc))) await accept(db, m.doc, original, null, { ksefInvoiceRef: inv.referenceNumber });
        else await reject(db, m.doc, 'ksef_duplicate_number', inv, { ksefInvoiceRef: inv.referenceNumber });
      } else if (outcome.kind === 'retry') await requeueDocument(db, m.doc, sendAgain(outcome.message), undefined, NOT_SENT);
      else await reject(db, m.doc, 'ksef_rejected', inv, { ksefInvoiceRef: inv.referenceNumber });
    }
    await forEachLimited(accepted, UPO_CONCURRENCY, async ({ m, inv }) => {
      const upo = await downloadUpo(client, token, batch.referenceNumber!, inv);
      await accept(db, m.doc, inv.ksefNumber!, upo, { ksefInvoiceRef: inv.referenceNumber });
    });
    if (pending > 0) return again(db, batchId, poll, pollDelayMs(age));
    await finish(db, batchId, code);
  } catch (err) {
    if (err instanceof CredentialRefusedError) return again(db, batchId, poll, 60_000);
    const outcome = requestOutcome(err);
    if (outcome?.kind === 'retry' || outcome?.kind === 'throttled') return again(db, batchId, poll, pollDelayMs(age, outcome.retryAfterSeconds));
    throw err;
  }
}

/** The pre-signed link is not rate-limited (README §6.5, §11); the API call is the fallback. */
async function downloadUpo(client: KsefClient, token: string, sessionRef: string, inv: InvoiceStatus): Promise<string> {
  if (inv.upoDownloadUrl && /^https?:\/\//.test(inv.upoDownloadUrl)) {
    return (await client.http.send({ method: 'GET', path: inv.upoDownloadUrl, headers: { accept: 'application/xml' } })).text;
  }
  return getInvoiceUpo(client, token, sessionRef, inv.referenceNumber);
}

async function forEachLimited<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
}

async function again(db: Db, batchId: string, poll: number, delayMs: number): Promise<void> {
  await enqueue(db, 'ksef_batch_status', { batchId, poll: poll + 1 }, { runAt: new Date(Date.now() + delayMs) });
}

async function finish(db: Db, batchId: string, code: number): Promise<void> {
  await db.update(ksefBatches).set({ status: 'done', sessionStatusCode: code, updatedAt: new Date() }).where(eq(ksefBatches.id, batchId));
}
