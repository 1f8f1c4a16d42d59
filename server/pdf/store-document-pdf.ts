import type { Db } from '@/server/db/client';
import { files } from '@/server/db/schema';
import { withLockedDocument } from '@/server/documents/locked';
import { patchDocument } from '@/server/documents/patch-document';
import { newId, randomToken } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { metrics, secondsSince } from '@/server/observability/metrics';
import { loadDocument } from '@/server/documents/load-document';
import { buildDocumentView } from './document-view';
import { isPrintable, offlineCertificateQrUrl } from './offline-codes';
import { renderDocumentPdf } from './render';

/** `FV/2026/11/1` → `FV-2026-11-1.pdf`: safe in a Content-Disposition header and on any file system. */
export const pdfFileName = (number: string): string => `${number.replace(/[^0-9A-Za-z_-]+/g, '-')}.pdf`;

/** `mail_pending`: stored, and the buyer's e-mail is now due. */
export type StorePdfOutcome = 'stored' | 'mail_pending' | 'already_stored' | 'not_accepted';

/**
 * One document's PDF (DESIGN pipeline): renders the accepted document outside any transaction, then in one
 * transaction stores the file, links it with the public token (an existing token is kept) and, when the buyer has
 * an e-mail, makes it pending. `mail: 'inline'` (the PDF lane) sends it right after, so no job is added (a crash
 * before the send leaves it to ksef_sweep); `mail: 'job'` (a buyer's link opened first) enqueues the lane's
 * mail_send. Safe to run twice: a document that has its PDF is left alone.
 */
export async function storeDocumentPdf(db: Db, documentId: string, o: { mail: 'inline' | 'job' }): Promise<StorePdfOutcome> {
  const doc = await loadDocument(db, documentId);
  if (!doc || !isPrintable(doc) || !doc.fa3Xml || !doc.number) return 'not_accepted';
  if (doc.pdfFileId) return 'already_stored';
  // the view is read from the stored XML: the printout repeats the e-invoice as KSeF accepted it
  const view = buildDocumentView({ doc, certificateQrUrl: offlineCertificateQrUrl(doc) });
  const started = performance.now();
  const pdf = await renderDocumentPdf(view);
  metrics().pdfRender.observe(secondsSince(started));

  let outcome: StorePdfOutcome = 'already_stored';
  await withLockedDocument(db, doc.id, ['accepted', 'queued', 'sending'], async (tx, locked) => {
    // a state change since rendering (an offline document accepted meanwhile) leaves it to the next pdf_render, which
    // the change enqueued
    if (locked.pdfFileId || locked.status !== doc.status || locked.ksefNumber !== doc.ksefNumber) return;
    const fileId = newId('file');
    await tx.insert(files).values({ id: fileId, documentId: locked.id, contentType: 'application/pdf', filename: pdfFileName(doc.number!), content: pdf });
    // an offline document's buyer got the e-mail at offline issue; the numbered re-render is at the same pdf_url, not mailed again
    if (locked.mailStatus) {
      await patchDocument(tx, locked.id, { pdfFileId: fileId });
      outcome = 'stored';
      return;
    }
    const mailStatus = locked.buyerEmail ? 'pending' : 'not_needed';
    await patchDocument(tx, locked.id, { pdfFileId: fileId, pdfToken: locked.pdfToken ?? randomToken(128), mailStatus });
    if (mailStatus === 'pending' && o.mail === 'job') await enqueue(tx, 'mail_send', { accountId: locked.accountId, mode: locked.mode });
    outcome = mailStatus === 'pending' ? 'mail_pending' : 'stored';
  });
  return outcome;
}
