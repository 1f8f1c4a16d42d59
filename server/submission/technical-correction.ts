import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { withLockedDocument } from '@/server/documents/locked';
import { transition } from '@/server/documents/transition';
import { AppError } from '@/server/errors';
import { enqueueSend } from './document-outcomes';

/** KSeF rejections a technical correction may fix: file, schema/semantics, duplicate; not permissions (korekta-techniczna.md). */
export const TECHNICAL_REJECTIONS = new Set([430, 440, 450]);

/**
 * Technical correction of an offline document (README §6.6): rejected by KSeF for a technical reason, it goes back to
 * queued with its XML to be rebuilt from the same order data (same number, P_1 and amounts; the content must not
 * change) and is sent in an interactive session with offlineMode true and hashOfCorrectedInvoice = the rejected
 * file's hash. Through the API: rejected → queued → sending → accepted, `offline.technical_correction_of` set.
 */
export async function correctTechnically(db: Db, scope: Scope, documentId: string): Promise<void> {
  let refusal: string | null = 'No such document.';
  await withLockedDocument(db, documentId, ['rejected'], async (tx, locked) => {
    if (locked.accountId !== scope.accountId || locked.mode !== scope.mode) return;
    const code = locked.lastError?.ksef_code;
    if (!locked.offlineMode) refusal = 'Only a document issued offline can be technically corrected; send a new invoice instead.';
    else if (!code || !TECHNICAL_REJECTIONS.has(code)) refusal = `KSeF rejected it for a reason a technical correction does not fix (code ${code ?? 'none'}).`;
    else {
      refusal = null;
      // a second attempt still names the first rejected file: that is the invoice the buyer holds
      const corrected = locked.correctedInvoiceHash ?? locked.xmlSha256;
      const queued = await transition(tx, locked, 'queued', {
        correctedInvoiceHash: corrected,
        fa3Xml: null,
        xmlSha256: null,
        ksefSessionRef: null,
        ksefInvoiceRef: null,
        lastError: null,
        sendAfter: null,
      });
      await enqueueSend(tx, queued);
    }
  });
  if (refusal) throw new AppError('parameter_invalid', 'id', refusal);
}
