import { and, eq } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { documents, files } from '@/server/db/schema';
import { storeDocumentPdf } from './store-document-pdf';

export type PublicPdf = { content: Buffer; filename: string };

const storedPdf = async (db: Db, token: string) => {
  const [row] = await db
    .select({ documentId: documents.id, content: files.content, filename: files.filename })
    .from(documents)
    .leftJoin(files, and(eq(files.id, documents.pdfFileId), eq(files.documentId, documents.id)))
    .where(eq(documents.pdfToken, token));
  return row;
};

/**
 * The PDF behind a pdf_url token. The token exists from acceptance on (poll-status.ts), so a buyer may open the link
 * before pdf_render ran: the PDF is then rendered here and stored as pdf_render stores it, so the worker and the mail
 * reuse this file. Two renders at once are safe: the first to lock the document stores its file, the other's is
 * dropped (store-document-pdf.ts). Undefined for an unknown token or a document with nothing to print.
 */
export async function pdfByToken(db: Db, token: string): Promise<PublicPdf | undefined> {
  const first = await storedPdf(db, token);
  if (!first) return undefined;
  if (first.content && first.filename) return { content: first.content, filename: first.filename };
  if ((await storeDocumentPdf(db, first.documentId, { mail: 'job' })) === 'not_accepted') return undefined;
  const rendered = await storedPdf(db, token);
  return rendered?.content && rendered.filename ? { content: rendered.content, filename: rendered.filename } : undefined;
}
