import type { Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import type { DocumentRow } from './document-row';

/**
 * Corrections wait in queued for their original (spec 3). When the original reaches a final state, their send
 * step runs again: it sends them (accepted) or skips them (rejected, skipped). `corrections` are all of the
 * invoice's corrections, as transition() read them for its event.
 */
export async function wakeCorrections(tx: Tx, invoice: DocumentRow, corrections: readonly DocumentRow[]): Promise<void> {
  for (const c of corrections) {
    if (c.status === 'queued') await enqueue(tx, 'ksef_send', { documentId: c.id, accountId: invoice.accountId, mode: invoice.mode });
  }
}
