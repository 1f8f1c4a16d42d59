import type { DocumentRow } from '@/server/documents/document-row';
import type { KsefClient } from '@/server/ksef/client';
import { KsefApiError } from '@/server/ksef/http';
import { findInvoicesByNumber, type InvoiceMetadata } from '@/server/ksef/invoice-metadata';

/** KSeF answers 410 Gone for a status past its retention (changelog 2.4.0). */
export const isGone = (err: unknown): err is KsefApiError => err instanceof KsefApiError && err.status === 410;

/** Our XML among KSeF's invoices of that number: the hash decides, as it does for a 440 (invariant 4). */
export const ourInvoice = (found: InvoiceMetadata[], xmlSha256: string | null): InvoiceMetadata | undefined =>
  xmlSha256 ? found.find((m) => m.invoiceHash === xmlSha256) : undefined;

/** KSeF cannot have taken a document before it existed; a day of margin covers clocks apart. */
const MARGIN_MS = 86_400_000;

/**
 * For a document in `sending` whose KSeF status is gone, KSeF's invoice metadata says what became of it: found by
 * number and hash, its KSeF number and the UPO (while the session still gives it); not found, KSeF never took it and
 * the caller sends it again (a copy KSeF took after all comes back as 440 for our own hash and is reconciled).
 */
export async function findOurInvoice(
  client: KsefClient,
  token: string,
  doc: Pick<DocumentRow, 'number' | 'xmlSha256' | 'createdAt' | 'ksefSessionRef'>,
): Promise<{ ksefNumber: string; upoXml: string | null } | undefined> {
  const found = doc.number ? await findInvoicesByNumber(client, token, doc.number, new Date(doc.createdAt.getTime() - MARGIN_MS)) : [];
  const ours = ourInvoice(found, doc.xmlSha256);
  return ours && { ksefNumber: ours.ksefNumber, upoXml: await sessionUpo(client, token, doc.ksefSessionRef, ours.ksefNumber) };
}

/** The caller's message when KSeF holds no copy and the document goes back to the queue. */
export const GONE_NOT_FOUND = 'KSeF no longer keeps the status and holds no invoice with this number and hash';

async function sessionUpo(client: KsefClient, token: string, sessionRef: string | null, ksefNumber: string): Promise<string | null> {
  if (!sessionRef) return null;
  try {
    const res = await client.http.send({
      method: 'GET',
      path: `/sessions/${sessionRef}/invoices/ksef/${ksefNumber}/upo`,
      bearer: token,
      headers: { accept: 'application/xml' },
    });
    return res.text;
  } catch (err) {
    if (err instanceof KsefApiError) return null;
    throw err;
  }
}
