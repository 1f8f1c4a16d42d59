import { describe, expect, test } from 'vitest';
import { isPrintable, offlineCertificateQrUrl } from '@/server/pdf/offline-codes';
import type { DocumentRow } from './document-row';
import { offlineAcceptancePatch, serializeOffline } from './offline';

const deadline = new Date('2026-02-09T22:59:59.999Z');
const offlineDoc = {
  offlineMode: true,
  offlineIssuedAt: new Date('2026-02-06T10:00:00Z'),
  offlineDeadline: deadline,
  offlineDeadlineMissed: false,
  offlineKodIiUrl: 'https://qr-test.ksef.mf.gov.pl/certificate/Nip/5265877635/5265877635/01F20A5D352AE590/XJkXxkgABi0VXViiUD_prFKNvs5OevopF48KLo4EhfM/sig',
  correctedInvoiceHash: null,
  ksefNumber: null,
  status: 'queued',
  pdfFileId: 'file_offline',
} as unknown as DocumentRow;

describe('offline facts of a document', () => {
  test('the API field: null online, unix seconds offline', () => {
    expect(serializeOffline({ ...offlineDoc, offlineMode: false })).toBeNull();
    expect(serializeOffline(offlineDoc)).toEqual({
      issued_at: 1770372000,
      deadline: 1770677999,
      deadline_missed: false,
      technical_correction_of: null,
      mode: 'offline24',
      jpk_marker: 'DI',
    });
  });

  test('acceptance after the deadline marks it missed and drops the offline PDF for the numbered one', () => {
    expect(offlineAcceptancePatch(offlineDoc, new Date(deadline.getTime() - 1))).toEqual({ offlineDeadlineMissed: false, pdfFileId: null });
    expect(offlineAcceptancePatch(offlineDoc, new Date(deadline.getTime() + 1))).toEqual({ offlineDeadlineMissed: true, pdfFileId: null });
    expect(offlineAcceptancePatch({ ...offlineDoc, offlineMode: false }, new Date())).toEqual({});
  });

  test('KOD II is on the view only until KSeF numbers the document; offline documents print before acceptance', () => {
    expect(offlineCertificateQrUrl(offlineDoc)).toBe(offlineDoc.offlineKodIiUrl);
    expect(offlineCertificateQrUrl({ ...offlineDoc, ksefNumber: '5265877635-20260206-0100001AF629-AF' })).toBeUndefined();
    expect(isPrintable(offlineDoc)).toBe(true);
    expect(isPrintable({ ...offlineDoc, offlineKodIiUrl: null })).toBe(false);
    expect(isPrintable({ ...offlineDoc, status: 'rejected' })).toBe(false);
  });
});
