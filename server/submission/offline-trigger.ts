import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { getOfflinePolicy } from '@/server/ksef-connection/offline-policy';
import { loadDocument } from '@/server/documents/load-document';
import { issueOffline, type OfflineIssue } from './issue-offline';

/**
 * offline_issue, enqueued at a document's first "KSeF did not answer": with the policy "when KSeF is not answering"
 * it waits the configured delay (from that first failure, `dueAt`), then issues offline if KSeF still has not taken
 * the document. Off: nothing. Offline-first documents are issued by ksef_send itself, before KSeF is asked.
 */
export async function runOfflineTrigger(db: Db, documentId: string, dueAt: string | undefined, now: Date): Promise<OfflineIssue | 'waiting' | 'off'> {
  const doc = await loadDocument(db, documentId);
  if (!doc || doc.offlineKodIiUrl) return { outcome: 'already_offline' };
  const { policy, delaySeconds } = await getOfflinePolicy(db, { accountId: doc.accountId, mode: doc.mode });
  if (policy === 'off') return 'off';
  if (policy === 'when_unavailable' && !dueAt) {
    const due = new Date(now.getTime() + delaySeconds * 1000);
    await enqueue(db, 'offline_issue', { documentId, dueAt: due.toISOString() }, { runAt: due });
    return 'waiting';
  }
  if (dueAt && Date.parse(dueAt) > now.getTime()) return 'waiting';
  const stillUnsent = (doc.status === 'queued' || doc.status === 'sending') && !doc.ksefInvoiceRef;
  if (!stillUnsent) return { outcome: 'not_needed' };
  return issueOffline(db, documentId, now);
}
