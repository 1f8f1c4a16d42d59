import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { documents, files } from '../db/schema';
import type { DocumentRow } from '../documents/document-row';
import { earlierRefunds } from '../documents/earlier-refunds';
import { withLockedDocument } from '../documents/locked';
import { patchDocument } from '../documents/transition';
import { newId, randomToken } from '../ids';
import { enqueue } from '../jobs/enqueue';
import { buildDocumentView } from './document-view';
import { readIssuedFacts } from './issued-facts';
import { renderDocumentPdf } from './render';

/** mail_send retries SMTP refusals with graphile-worker's back-off: exp(n) s, about 6 hours over 10 attempts. */
export const MAIL_ATTEMPTS = 10;

/** `FV/2026/11/1` → `FV-2026-11-1.pdf`: safe in a Content-Disposition header and on any file system. */
export const pdfFileName = (number: string): string => `${number.replace(/[^0-9A-Za-z_-]+/g, '-')}.pdf`;

export type StorePdfOutcome = 'stored' | 'already_stored' | 'not_accepted';

/**
 * pdf_render (DESIGN pipeline): renders the accepted document outside any transaction, then in one transaction
 * stores the file, links it with the public token (an existing token is kept) and, when the buyer has an e-mail,
 * enqueues mail_send. Safe to run twice: a document that has its PDF is left alone.
 */
export async function storeDocumentPdf(db: Db, documentId: string): Promise<StorePdfOutcome> {
  const doc = await load(db, documentId);
  if (!doc || doc.status !== 'accepted' || !doc.fa3Xml || !doc.number) return 'not_accepted';
  if (doc.pdfFileId) return 'already_stored';
  const original = doc.kind === 'correction' && doc.invoiceId ? ((await load(db, doc.invoiceId)) ?? null) : null;
  const issued = readIssuedFacts(doc.fa3Xml);
  const view = buildDocumentView({ doc, issued, original, earlierRefunds: original ? await earlierRefunds(db, original.id, doc.seq) : [] });
  // the printout must repeat the e-invoice's amounts; a drift (say an earlier correction rejected since) fails loudly
  const t = view.totals;
  if (t.netGrosze !== issued.totals.netGrosze || t.vatGrosze !== issued.totals.vatGrosze || t.grossGrosze !== issued.totals.grossGrosze) {
    throw new Error(`PDF of ${doc.id}: totals ${JSON.stringify(t)} differ from the FA(3) XML's ${JSON.stringify(issued.totals)}`);
  }
  const pdf = await renderDocumentPdf(view);

  let outcome: StorePdfOutcome = 'already_stored';
  await withLockedDocument(db, doc.id, ['accepted'], async (tx, locked) => {
    if (locked.pdfFileId) return;
    const fileId = newId('file');
    await tx.insert(files).values({ id: fileId, documentId: locked.id, contentType: 'application/pdf', filename: pdfFileName(doc.number!), content: pdf });
    const mailStatus = locked.buyerEmail ? 'pending' : 'not_needed';
    await patchDocument(tx, locked.id, { pdfFileId: fileId, pdfToken: locked.pdfToken ?? randomToken(128), mailStatus });
    if (mailStatus === 'pending') await enqueue(tx, 'mail_send', { documentId: locked.id }, { jobKey: `mail:${locked.id}`, maxAttempts: MAIL_ATTEMPTS });
    outcome = 'stored';
  });
  return outcome;
}

async function load(db: Db, id: string): Promise<DocumentRow | undefined> {
  const [doc] = await db.select().from(documents).where(eq(documents.id, id));
  return doc;
}
