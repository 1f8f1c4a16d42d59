import 'server-only';
import { and, eq } from 'drizzle-orm';
import { db as sharedDb, type Db } from '@/server/db/client';
import { files } from '@/server/db/schema';
import type { DocumentRow } from '@/server/documents/document-row';
import { getDocument } from '@/server/documents/get-document';
import { AppError } from '@/server/errors';
import { routeNotFound, type Endpoint } from '@/server/http/route';
import { parseParams } from '@/server/http/validate';
import { pdfByToken } from '@/server/pdf/pdf-by-token';
import { zId } from '@/server/ids';

const ZDocumentId = zId('inv', 'cor');
const fileName = (number: string | null, id: string, ext: string) => `${(number ?? id).replace(/[^0-9A-Za-z_-]+/g, '-')}.${ext}`;
const attachment = (name: string) => ({ 'Content-Disposition': `attachment; filename="${name}"` });

type Download = { content: Buffer | string; contentType: string; filename: string };

/** A GET /v1/invoices/{id}/… download: the document of the scope, then its file or 409 `notReady`. */
function downloadEndpoint(
  notReady: 'xml_not_ready' | 'upo_not_ready' | 'pdf_not_ready',
  pick: (db: Db, doc: DocumentRow) => Promise<Download | null>,
): Endpoint<{ id: string }> {
  return {
    input: ({ params }) => ({ id: parseParams(ZDocumentId, params.id, ['id']) }),
    handle: async ({ db, scope, input }) => {
      const file = await pick(db, await getDocument(db, scope, input.id));
      if (!file) throw new AppError(notReady);
      return { status: 200, raw: file.content, contentType: file.contentType, headers: attachment(file.filename) };
    },
  };
}

const XML = 'application/xml; charset=utf-8';

/** GET /v1/invoices/{id}/xml (beyond the spec): the FA(3) XML exactly as built and sent; 409 until built. */
export const downloadXml = downloadEndpoint('xml_not_ready', async (_db, doc) =>
  doc.fa3Xml ? { content: doc.fa3Xml, contentType: XML, filename: fileName(doc.number, doc.id, 'xml') } : null,
);

/** GET /v1/invoices/{id}/upo (beyond the spec): KSeF's UPO of the accepted document; 409 until available. */
export const downloadUpo = downloadEndpoint('upo_not_ready', async (_db, doc) =>
  doc.upoXml ? { content: doc.upoXml, contentType: XML, filename: fileName(doc.number, doc.id, 'upo.xml') } : null,
);

/** GET /v1/invoices/{id}/pdf (spec 4.4): the stored PDF as a download; 409 pdf_not_ready until pdf_render stored it. */
export const downloadPdf = downloadEndpoint('pdf_not_ready', async (db, doc) => {
  const file = doc.pdfFileId ? await pdfFile(db, doc.pdfFileId, doc.id) : undefined;
  return file ? { content: file.content, contentType: 'application/pdf', filename: file.filename } : null;
});

async function pdfFile(db: Db, fileId: string, documentId: string) {
  const [file] = await db
    .select({ content: files.content, filename: files.filename })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.documentId, documentId)));
  return file;
}

/** randomToken(128) is 22 base62 characters; anything else is not worth a query. */
const PDF_TOKEN = /^[0-9A-Za-z]{22,64}$/;

/**
 * GET /d/{token}: the buyer's link (pdf_url), no API key. The token is the only secret, 128 random bits found
 * through its unique index, so links cannot be enumerated; an unknown token answers like any unknown path. A link
 * opened before pdf_render ran renders the PDF now (server/pdf/pdf-by-token.ts).
 */
export async function getPublicPdf(req: Request, ctx: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await ctx.params;
  const file = PDF_TOKEN.test(token) ? await pdfByToken(sharedDb(), token) : undefined;
  if (!file) return routeNotFound(req, ctx);
  return new Response(new Uint8Array(file.content), {
    status: 200,
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${file.filename}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      // the link is the credential: keep it out of Referer headers and search engines
      'Referrer-Policy': 'no-referrer',
      'X-Robots-Tag': 'noindex',
    },
  });
}
