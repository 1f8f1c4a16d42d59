import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { AppError } from '@/server/errors';
import type { ErrorCode } from '@/server/facts/error-codes';
import { enqueue } from '@/server/jobs/enqueue';
import type { DocumentRow } from './document-row';
import { getDocument } from './get-document';
import { lockDocument } from './load-document';
import { transition } from './transition';

/**
 * Why a `skipped` document may be retried: its cause can be fixed on our side (the seller data in the dashboard, the
 * original invoice by its own retry). The others are final on purpose (original_rejected: the original is in KSeF).
 */
const RETRYABLE_SKIPS: readonly ErrorCode[] = ['seller_not_configured', 'original_not_invoiced'];

/** Whether `retryDocument` takes the document: any `error`, or a `skipped` whose cause can be fixed. */
export function isRetryable(doc: Pick<DocumentRow, 'status' | 'lastError'>): boolean {
  if (doc.status === 'error') return true;
  return doc.status === 'skipped' && RETRYABLE_SKIPS.includes(doc.lastError?.code as ErrorCode);
}

/**
 * Sends a document that ended in `error` (or `skipped` for a fixable cause) through the pipeline again, after its
 * cause was fixed. A document without a number goes back to `pending` with its prepare job, so every check before
 * numbering runs again (invariant 9); a numbered one keeps its number (invariant 1) and goes back to `queued` with
 * its lane's send job. The move, its timeline row and the job commit together (invariant 2), under the document's row lock:
 * of two retries at once, one moves it and the other finds it on its way (document_not_retryable).
 */
export async function retryDocument(db: Db, scope: Scope, id: string): Promise<DocumentRow> {
  await getDocument(db, scope, id); // resource_missing for another account's or mode's document (invariant 5)
  return db.transaction(async (tx) => {
    const doc = (await lockDocument(tx, id))!;
    if (!isRetryable(doc)) {
      throw new AppError('document_not_retryable', 'id', `${id} is ${doc.status}${doc.lastError ? ` (${doc.lastError.code})` : ''}; ${RETRY_RULE}`);
    }
    if (doc.number) {
      const queued = await transition(tx, doc, 'queued', { lastError: null, sendAfter: null });
      await enqueue(tx, 'ksef_send', scope);
      return queued;
    }
    const pending = await transition(tx, doc, 'pending', { lastError: null });
    await enqueue(tx, 'document_prepare', scope);
    return pending;
  });
}

const RETRY_RULE = 'only a document in error, or skipped for seller_not_configured or original_not_invoiced, can be retried.';
