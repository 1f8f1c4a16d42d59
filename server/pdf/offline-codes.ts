import type { DocumentRow } from '@/server/documents/document-row';

/**
 * KOD II of a document's PDF (kody-qr.md): until KSeF numbers it, an offline invoice carries KOD I labelled
 * OFFLINE (no KSeF number yet) and KOD II labelled CERTYFIKAT; once numbered, KOD I carries the KSeF number and
 * KOD II is no longer printed.
 */
export function offlineCertificateQrUrl(doc: Pick<DocumentRow, 'offlineMode' | 'offlineKodIiUrl' | 'ksefNumber'>): string | undefined {
  if (!doc.offlineMode || doc.ksefNumber || !doc.offlineKodIiUrl) return undefined;
  return doc.offlineKodIiUrl;
}

/** A document the service may print: accepted, or issued offline with its KOD II and not yet final otherwise. */
export const isPrintable = (doc: Pick<DocumentRow, 'status' | 'offlineMode' | 'offlineKodIiUrl'>): boolean =>
  doc.status === 'accepted' || (doc.offlineMode && doc.offlineKodIiUrl !== null && (doc.status === 'queued' || doc.status === 'sending'));
