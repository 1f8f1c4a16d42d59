import type { Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import type { DocumentRow } from './document-row';

/**
 * Corrections wait for their original: unnumbered in pending until it has a number (invariant 9), then in queued
 * until it is final (spec 3). When the original takes its number or reaches a final state, each waiting step runs
 * again: prepare numbers them (or skips them, original not invoiced), send sends them (accepted) or skips them
 * (rejected, skipped). `corrections` are all of the invoice's corrections, as transition() read them.
 */
export async function wakeCorrections(tx: Tx, invoice: DocumentRow, corrections: readonly DocumentRow[]): Promise<void> {
  for (const c of corrections) {
    if (c.status === 'pending') await enqueue(tx, 'document_prepare', { accountId: invoice.accountId, mode: invoice.mode });
    if (c.status === 'queued') await enqueue(tx, 'ksef_send', { accountId: invoice.accountId, mode: invoice.mode });
  }
}
