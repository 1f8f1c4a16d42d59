import type { DocumentRow } from '@/server/documents/document-row';
import { kodIUrl, type KsefEnvironment } from '@/server/ksef/qr';
import { readIssuedFacts, type IssuedFacts } from './issued-facts';
import type { TDocumentView } from './view-model';

export type DocumentViewInput = {
  /** Numbered, with the FA(3) XML as sent and, once accepted, its KSeF number. */
  doc: Pick<DocumentRow, 'id' | 'number' | 'issueDate' | 'fa3Xml' | 'ksefNumber' | 'ksefEnvironment'>;
  /** readIssuedFacts(doc.fa3Xml), when the caller has it already. */
  issued?: IssuedFacts;
  /** KOD II of a document issued offline (KSeF brief §10), signed with the seller's Offline certificate. */
  certificateQrUrl?: string;
};

/** The PDF view of a numbered invoice or correction: the stored XML's fields, KSeF's number and KOD I over the stored bytes. */
export function buildDocumentView({ doc, issued, certificateQrUrl }: DocumentViewInput): TDocumentView {
  if (!doc.number || !doc.issueDate || !doc.fa3Xml) throw new Error(`document ${doc.id} has no number, issue date or XML yet`);
  return documentViewFromXml(doc.fa3Xml, { ksefNumber: doc.ksefNumber, environment: doc.ksefEnvironment, certificateQrUrl, issued });
}

export type XmlViewMeta = {
  ksefNumber: string | null;
  environment: KsefEnvironment;
  certificateQrUrl?: string;
  issued?: IssuedFacts;
};

/** The view of an FA(3) XML file as sent to KSeF (bytes as hashed into KOD I). */
export function documentViewFromXml(xml: string | Buffer, meta: XmlViewMeta): TDocumentView {
  const facts = meta.issued ?? readIssuedFacts(xml);
  const sellerNip = facts.seller.nip;
  if (!sellerNip) throw new Error('FA(3) Podmiot1 has no NIP');
  return {
    ...facts,
    ksefNumber: meta.ksefNumber,
    qr: { url: kodIUrl({ environment: meta.environment, sellerNip, issueDate: facts.issueDate, xml }) },
    ...(meta.certificateQrUrl && { certificateQr: { url: meta.certificateQrUrl } }),
  };
}
