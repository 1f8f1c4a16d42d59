import type { Db } from '@/server/db/client';
import { withLockedDocument } from '@/server/documents/locked';
import { markOffline } from '@/server/documents/offline';
import { sellerOf } from '@/server/documents/seller';
import { enqueue } from '@/server/jobs/enqueue';
import { kodIIUrl } from '@/server/ksef/qr';
import { loadOfflineSigner } from '@/server/ksef-connection/offline-certificate';
import { log } from '@/server/observability/log';
import { loadDocument } from '@/server/documents/load-document';
import { outageTermsAt } from '@/server/outage/issue-terms';
import { finishDocument } from './document-outcomes';
import { ensureDocumentXml } from './document-xml';

export type OfflineIssue = { outcome: 'issued' | 'already_offline' | 'not_needed' | 'no_certificate' | 'failed'; reason?: string };

/**
 * Issues a document outside KSeF (offline24, art. 106nda VAT Act; ksef-docs tryby-offline.md): its FA(3) XML is
 * fixed (P_1 stays the offline issue date from then on), KOD II is signed with the Offline certificate, the mode and
 * deadline are those of the Ministry notice in force (server/outage: unavailability, failure, total failure), else
 * offline24's end of the next working day after P_1, and pdf_render prints KOD I labelled OFFLINE and KOD II labelled
 * CERTYFIKAT and mails the buyer at once. KSeF sending goes on with offlineMode true. Nothing happens to a document
 * KSeF already has (an invoice reference) or that is final; a correction only once its invoice has a KSeF number
 * (a KOR of an offline invoice may be sent only after the original is numbered).
 */
export async function issueOffline(db: Db, documentId: string, now: Date): Promise<OfflineIssue> {
  const doc = await loadDocument(db, documentId);
  if (!doc) return { outcome: 'not_needed' };
  // handed over already; a document only marked offline (sent on a later day than P_1) may still get its offline PDF
  if (doc.offlineKodIiUrl) return { outcome: 'already_offline' };
  if ((doc.status !== 'queued' && doc.status !== 'sending') || doc.ksefInvoiceRef || doc.ksefNumber || !doc.issueDate) return { outcome: 'not_needed' };
  const scope = { accountId: doc.accountId, mode: doc.mode };
  const original = doc.kind === 'correction' && doc.invoiceId ? ((await loadDocument(db, doc.invoiceId)) ?? null) : null;
  if (doc.kind === 'correction' && !original?.ksefNumber) return { outcome: 'not_needed', reason: 'the corrected invoice has no KSeF number yet' };
  const seller = await sellerOf(db, scope);
  if (!seller) return { outcome: 'not_needed', reason: 'seller not configured' };
  const loaded = await loadOfflineSigner(db, scope, now);
  if (!loaded.signer) return { outcome: 'no_certificate', reason: loaded.reason };

  const built = await ensureDocumentXml(db, doc, seller, original);
  if (built.error) {
    await finishDocument(db, doc, 'error', built.error);
    return { outcome: 'failed', reason: built.error.message };
  }
  const sellerNip = seller.nip;
  const kodII = kodIIUrl({
    environment: doc.ksefEnvironment,
    // the service logs in to KSeF in the seller's own NIP context, and the certificate is the seller's (ksef-offline.md §4.3)
    contextType: 'Nip',
    contextValue: sellerNip,
    sellerNip,
    certificateSerial: loaded.signer.serial,
    xml: built.xml,
    privateKey: loaded.signer.privateKeyPem,
  });
  // the mode and deadline of the Ministry notice in force, else offline24 (server/outage/modes.ts)
  const terms = await outageTermsAt(db, doc.issueDate, now);
  let issued = false as boolean;
  await withLockedDocument(db, doc.id, ['queued', 'sending'], async (tx, locked) => {
    if (locked.offlineKodIiUrl || locked.ksefInvoiceRef || locked.fa3Xml !== built.xml) return;
    await markOffline(tx, locked, { issuedAt: now, kodIIUrl: kodII, ...terms });
    await enqueue(tx, 'pdf_render', { accountId: locked.accountId, mode: locked.mode });
    issued = true;
  });
  if (!issued) return { outcome: 'not_needed' };
  log.info({ documentId, mode: terms.outageMode, deadline: terms.deadline?.toISOString() ?? null }, 'offline_issued');
  return { outcome: 'issued' };
}
