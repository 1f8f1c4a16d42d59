import type { Db } from '@/server/db/client';
import type { DocumentRow } from '@/server/documents/document-row';
import { planIssueDate } from '@/server/documents/issue-date-plan';
import { withLockedDocument } from '@/server/documents/locked';
import { invoiceWarnings } from '@/server/documents/prepare-document';
import { markOffline } from '@/server/documents/offline';
import { patchDocument } from '@/server/documents/patch-document';
import { addWarnings } from '@/server/documents/warnings';
import { warsawDate } from '@/server/calendar/dates';
import { ZNormalizedOrder } from '@/server/orders/types';
import { loadDocument } from '@/server/documents/load-document';

/**
 * Applies planIssueDate: a moved P_1 drops the stored XML (it is rebuilt with the same number), an offline document
 * is marked with its deadline; both leave a warning on the timeline. Returns the document as it now is.
 */
export async function settleIssueDate(db: Db, doc: DocumentRow, now: Date): Promise<DocumentRow> {
  const plan = planIssueDate(doc, warsawDate(now.toISOString()));
  if (plan.kind === 'as_is' || (plan.kind === 'offline' && doc.offlineMode)) return doc;
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    if (plan.kind === 'move') {
      await patchDocument(tx, locked.id, { issueDate: plan.issueDate, fa3Xml: null, xmlSha256: null });
      const late =
        locked.kind === 'invoice' ? invoiceWarnings(ZNormalizedOrder.parse(locked.input), plan.issueDate).filter((w) => w.code === 'invoice_late') : [];
      await addWarnings(tx, locked, [plan.warning, ...late]);
    } else {
      await markOffline(tx, locked, { issuedAt: now, deadline: plan.deadline });
      await addWarnings(tx, locked, [plan.warning]);
    }
  });
  const current = await loadDocument(db, doc.id);
  return current!;
}
