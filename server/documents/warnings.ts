import { eq, sql } from 'drizzle-orm';
import type { Tx } from '@/server/db/client';
import { documents, documentTransitions, type DocumentWarning } from '@/server/db/schema';
import type { DocumentRow } from './document-row';

/**
 * Records warnings on the document and, as entries without a status change, on its timeline. A warning code the
 * document already carries is not recorded twice (a retried job stays quiet).
 */
export async function addWarnings(tx: Tx, doc: DocumentRow, warnings: readonly DocumentWarning[]): Promise<void> {
  const fresh = warnings.filter((w) => !doc.warnings.some((old) => old.code === w.code));
  if (fresh.length === 0) return;
  await tx
    .update(documents)
    .set({ warnings: sql`${documents.warnings} || ${JSON.stringify(fresh)}::jsonb` })
    .where(eq(documents.id, doc.id));
  await tx.insert(documentTransitions).values(
    fresh.map((w) => ({
      documentId: doc.id,
      fromStatus: doc.status,
      toStatus: doc.status,
      error: { type: 'warning', code: w.code, message: w.message, text: w.text, params: w.params },
    })),
  );
}
