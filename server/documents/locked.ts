import type { Db, Tx } from '@/server/db/client';
import type { DocumentStatus } from '@/server/db/schema';
import type { DocumentRow } from './document-row';
import { lockDocument } from './load-document';

/**
 * Runs `fn` in a transaction holding the document's row lock, only while the document is still in one of
 * `statuses`: a step that runs twice, or races another, finds the work done and does nothing.
 */
export async function withLockedDocument(
  db: Db,
  id: string,
  statuses: readonly DocumentStatus[],
  fn: (tx: Tx, doc: DocumentRow) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const doc = await lockDocument(tx, id);
    if (doc && statuses.includes(doc.status)) await fn(tx, doc);
  });
}
