import { and, eq } from 'drizzle-orm';
import type { Tx } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import type { DocumentRow } from './document-row';

/**
 * Corrections wait in queued for their original (spec 3). When the original reaches a final state, their send
 * step runs again: it sends them (accepted) or skips them (rejected, skipped).
 */
export async function wakeCorrections(tx: Tx, invoice: DocumentRow): Promise<void> {
  const waiting = await tx
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.invoiceId, invoice.id), eq(documents.kind, 'correction'), eq(documents.status, 'queued')));
  for (const c of waiting) {
    await enqueue(tx, 'ksef_send', { documentId: c.id, accountId: invoice.accountId, mode: invoice.mode });
  }
}
