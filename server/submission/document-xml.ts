import type { Db } from '@/server/db/client';
import type { StoredError } from '@/server/db/schema';
import { buildDocumentXml } from '@/server/documents/build-document-xml';
import type { DocumentRow } from '@/server/documents/document-row';
import { documentError } from '@/server/documents/document-errors';
import { patchDocument } from '@/server/documents/patch-document';
import { AppError } from '@/server/errors';
import { sha256Base64 } from '@/server/ksef/crypto';
import type { Seller } from '@/server/ksef/fa3/parts';
import { validateXml } from '@/server/ksef/xsd';

/**
 * The document's FA(3) XML, built and schema-checked once and stored with its hash: every later step (sending,
 * offline issuing, QR codes) uses exactly these bytes (invariant 4). An error is the document's final error.
 */
export async function ensureDocumentXml(
  db: Db,
  doc: DocumentRow,
  seller: Seller,
  original: DocumentRow | null,
): Promise<{ xml: string; xmlSha256: string; error?: never } | { error: StoredError }> {
  if (doc.fa3Xml) return { xml: doc.fa3Xml, xmlSha256: doc.xmlSha256 ?? sha256Base64(Buffer.from(doc.fa3Xml, 'utf8')) };
  let xml: string;
  try {
    xml = await buildDocumentXml(db, doc, seller, original);
  } catch (err) {
    if (err instanceof AppError) return { error: documentError('invoice_build_failed', err.message) };
    throw err;
  }
  const check = validateXml(xml, 'fa3');
  if (!check.ok) return { error: documentError('invoice_schema_invalid', `FA(3) schema check failed: ${check.message}`) };
  const xmlSha256 = sha256Base64(Buffer.from(xml, 'utf8'));
  await patchDocument(db, doc.id, { fa3Xml: xml, xmlSha256 });
  return { xml, xmlSha256 };
}
