import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents, ksefBatchDocuments, ksefBatches } from '@/server/db/schema';
import { buildDocumentXml } from '@/server/documents/build-document-xml';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import type { sellerOf } from '@/server/documents/seller';
import { nextUpdatedAt } from '@/server/documents/patch-document';
import { AppError } from '@/server/errors';
import { newId } from '@/server/ids';
import { buildBatchPackage } from '@/server/ksef/batch-session';
import type { KsefClient } from '@/server/ksef/client';
import { sha256Base64 } from '@/server/ksef/crypto';
import { KsefApiError, KsefUnavailableError } from '@/server/ksef/http';
import { requestOutcome } from '@/server/ksef/outcomes';
import { validateXml } from '@/server/ksef/xsd';
import { closeBatchSession, openBatchSession, uploadBatchParts } from '@/server/ksef/batch-session';
import { abandonBatch, markBatchClosed } from './batch-state';
import { claimForSending, type ClaimRequest } from './claim';
import { finishDocument } from './document-outcomes';
import { settleRefusedClose } from './reconcile-batches';
import { settleIssueDate } from './settle-issue-date';

/** KSeF's per-session maximum (README §11: 10 000 invoices, both session types). */
export const KSEF_MAX_BATCH = 10_000;

export type BatchOutcome =
  | { kind: 'closed'; batchId: string; documentIds: string[] }
  | { kind: 'nothing' }
  /** Not opened (KSeF down, `outage`, or the throttle, or a refusal): the documents are queued again. */
  | { kind: 'not_opened'; retryAfterSeconds?: number; throttled: boolean; outage: boolean; message: string }
  /** Opened but provably never processed: the documents went back to queued, the lane's send job with them. */
  | { kind: 'abandoned'; message: string }
  /** The close may or may not have reached KSeF: reconcileBatches decides on the next send. */
  | { kind: 'unsure'; retryAfterSeconds?: number; message: string };

/**
 * Queued documents a batch may take, oldest first: due (not in back-off), not sent before, and corrections only once
 * their original is in KSeF.
 */
async function pickDocuments(db: Db, scope: Scope, max: number): Promise<DocumentRow[]> {
  return db
    .select()
    .from(documents)
    .where(
      and(
        inScope(documents, scope),
        eq(documents.status, 'queued'),
        sql`coalesce(${documents.sendAfter}, now()) <= now()`,
        isNull(documents.ksefSessionRef),
        eq(documents.offlineMode, false), // offlineMode is per batch session: offline documents go interactively
        or(eq(documents.kind, 'invoice'), sql`exists (select 1 from documents o where o.id = ${documents.invoiceId} and o.status = 'accepted')`),
      ),
    )
    .orderBy(asc(documents.seq))
    .limit(max);
}

/**
 * FA(3) of each document, built and schema-checked (or the one saved before) with its hash: what the claim saves
 * and the package carries. Failures end that document. A document whose P_1 is before `now`'s day gets P_1 moved
 * to today, or, when it must go offline, stays out of the batch (offlineMode applies to a whole batch session):
 * the lane's run sends it interactively.
 */
async function buildXml(db: Db, docs: DocumentRow[], seller: Seller, now: Date): Promise<ClaimRequest[]> {
  const ready: ClaimRequest[] = [];
  const originals = new Map<string, DocumentRow>();
  const originalIds = [...new Set(docs.filter((d) => d.kind === 'correction' && !d.fa3Xml).map((d) => d.invoiceId!))];
  if (originalIds.length) for (const o of await db.select().from(documents).where(inArray(documents.id, originalIds))) originals.set(o.id, o);
  for (const picked of docs) {
    const doc = await settleIssueDate(db, picked, now);
    if (doc.offlineMode || doc.status !== 'queued') continue;
    const seen = { status: doc.status, ksefSessionRef: doc.ksefSessionRef, updatedAt: doc.updatedAt };
    if (doc.fa3Xml && doc.xmlSha256) {
      ready.push({ id: doc.id, xml: doc.fa3Xml, xmlSha256: doc.xmlSha256, seen });
      continue;
    }
    let xml: string;
    try {
      xml = await buildDocumentXml(db, doc, seller, doc.kind === 'correction' ? (originals.get(doc.invoiceId!) ?? null) : null);
    } catch (err) {
      if (err instanceof AppError) {
        await finishDocument(db, doc, 'error', documentError('invoice_build_failed', err.message));
        continue;
      }
      throw err;
    }
    const check = validateXml(xml, 'fa3');
    if (!check.ok) {
      await finishDocument(db, doc, 'error', documentError('invoice_schema_invalid', `FA(3) schema check failed: ${check.message}`));
      continue;
    }
    ready.push({ id: doc.id, xml, xmlSha256: sha256Base64(Buffer.from(xml, 'utf8')), seen });
  }
  return ready;
}

type Seller = NonNullable<Awaited<ReturnType<typeof sellerOf>>>;

const fileNameOf = (doc: Pick<DocumentRow, 'id'>) => `${doc.id}.xml`;

/**
 * Sends up to `max` queued documents of the scope in one batch session (README §8). The documents are claimed
 * (claimForSending: moved to sending with their XML, in a batch recorded in the same transaction) before the
 * package is built from exactly those, so a document another step claimed first is in neither; the session's
 * reference is saved before any upload, and the close with the status job, so that after a crash
 * reconcileBatches knows what KSeF may hold.
 */
export async function sendQueuedInBatch(
  db: Db,
  scope: Scope,
  client: KsefClient,
  token: string,
  seller: Seller,
  max: number,
  now: Date = new Date(),
): Promise<BatchOutcome> {
  const candidates = await buildXml(db, await pickDocuments(db, scope, Math.min(max, KSEF_MAX_BATCH)), seller, now);
  if (candidates.length === 0) return { kind: 'nothing' };
  const batchId = newId('kss');
  const picked = await claimBatch(db, scope, batchId, candidates);
  if (picked.length === 0) return { kind: 'nothing' };
  const ids = picked.map((d) => d.id);
  const pkg = buildBatchPackage(picked.map((d) => ({ fileName: fileNameOf(d), xml: d.fa3Xml! })));

  let opened: Awaited<ReturnType<typeof openBatchSession>>;
  try {
    opened = await openBatchSession(client, token, pkg);
  } catch (err) {
    // nothing was uploaded, so KSeF cannot process anything of it: the documents go back to queued
    await abandonBatch(db, batchId, 'opening failed');
    return notOpened(err);
  }

  // the claim still stands (no reconciliation abandoned the batch meanwhile), else nothing is uploaded: KSeF drops
  // a session that is never closed
  const held = await db.transaction(async (tx) => {
    const [batch] = await tx
      .update(ksefBatches)
      .set({ status: 'opened', referenceNumber: opened.referenceNumber, updatedAt: new Date() })
      .where(and(eq(ksefBatches.id, batchId), eq(ksefBatches.status, 'building')))
      .returning({ id: ksefBatches.id });
    if (!batch) return false;
    await tx
      .update(documents)
      .set({ ksefSessionRef: opened.referenceNumber, updatedAt: nextUpdatedAt() })
      .where(and(inArray(documents.id, ids), eq(documents.status, 'sending'), isNull(documents.ksefSessionRef), isNull(documents.ksefInvoiceRef)));
    return true;
  });
  if (!held) return { kind: 'abandoned', message: 'the batch was abandoned before its upload' };

  let stage: 'upload' | 'close' = 'upload';
  try {
    await uploadBatchParts(client, pkg, opened.partUploadRequests);
    const [uploaded] = await db
      .update(ksefBatches)
      .set({ status: 'uploaded', updatedAt: new Date() })
      .where(and(eq(ksefBatches.id, batchId), eq(ksefBatches.status, 'opened')))
      .returning({ id: ksefBatches.id });
    // abandoned (its documents queued again) while the parts went up: never closed, so never processed
    if (!uploaded) return { kind: 'abandoned', message: 'the batch was abandoned before its close' };
    stage = 'close';
    await closeBatchSession(client, token, opened.referenceNumber);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof KsefApiError && stage === 'close') {
      // the close refused (21205, 21157, 21208), or a reconciling step closed it first: KSeF's status decides
      if ((await settleRefusedClose(db, client, token, batchId, opened.referenceNumber, message)) === 'closed')
        return { kind: 'closed', batchId, documentIds: ids };
      return { kind: 'abandoned', message };
    }
    if (err instanceof KsefApiError || (err instanceof KsefUnavailableError && stage === 'upload')) {
      // a part not uploaded: never closed, so KSeF never processes this session
      await abandonBatch(db, batchId, message, err instanceof KsefUnavailableError);
      return { kind: 'abandoned', message };
    }
    if (err instanceof KsefUnavailableError) return { kind: 'unsure', retryAfterSeconds: err.retryAfterSeconds, message };
    throw err; // the job is retried and reconcileBatches starts from the recorded state
  }
  await markBatchClosed(db, batchId);
  return { kind: 'closed', batchId, documentIds: ids };
}

/** The batch's claim (invariant 4), one transaction: the batch row, its documents' move to sending and their membership. */
async function claimBatch(db: Db, scope: Scope, batchId: string, candidates: ClaimRequest[]): Promise<DocumentRow[]> {
  return db.transaction(async (tx) => {
    const claimed = await claimForSending(tx, candidates, null);
    if (claimed.length === 0) return [];
    await tx.insert(ksefBatches).values({ id: batchId, accountId: scope.accountId, mode: scope.mode, documentCount: claimed.length });
    await tx.insert(ksefBatchDocuments).values(claimed.map((d) => ({ batchId, documentId: d.id, fileName: fileNameOf(d) })));
    return claimed;
  });
}

/** Any KSeF answer to the opening leaves the documents queued: KSeF processes nothing of a session never opened. */
function notOpened(err: unknown): BatchOutcome {
  const outcome = requestOutcome(err);
  if (!outcome) throw err;
  const message = (err as Error).message;
  if (outcome.kind === 'throttled') return { kind: 'not_opened', retryAfterSeconds: outcome.retryAfterSeconds, throttled: true, outage: false, message };
  const retry = outcome.kind === 'retry' ? outcome : undefined;
  return { kind: 'not_opened', retryAfterSeconds: retry?.retryAfterSeconds, throttled: false, outage: retry?.cause === 'unavailable', message };
}
