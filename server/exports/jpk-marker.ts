/**
 * What a JPK_V7M(3)/JPK_V7K(3) sales row carries in place of the KSeF number, from 1 February 2026 (the Ministry of
 * Finance brochure "Broszura informacyjna dot. struktury JPK_VAT z deklaracją od 1 lutego 2026 r.", its part on
 * NrKSeF, OFF, BFK and DI; the regulation of 15 October 2019 on JPK_VAT data, Dz.U. poz. 1988, as amended in 2025):
 * - NrKSeF: the invoice has its KSeF number on the day the JPK is filed, whatever mode it was issued in;
 * - DI: among others an invoice issued offline24 (art. 106nda) or while KSeF was unavailable (art. 106nh ust. 1)
 *   that has no number yet; once KSeF numbers it, the JPK must be corrected to carry the number;
 * - OFF: an invoice issued in a KSeF failure announced by the Ministry (art. 106nf ust. 1) without a number yet;
 *   no JPK correction follows. This service has no failure mode (its offline issuing is offline24), so never OFF;
 * - BFK: an invoice issued outside KSeF by design (e.g. to a consumer); this service issues B2B invoices through
 *   KSeF only, so never BFK.
 * A document the register lists has a KSeF number or was handed over offline (register-query.ts), so these two cover it.
 */
export type JpkKsefMark = { kind: 'NrKSeF'; ksefNumber: string } | { kind: 'DI' };

export function jpkKsefMark(doc: { ksefNumber: string | null }): JpkKsefMark {
  return doc.ksefNumber ? { kind: 'NrKSeF', ksefNumber: doc.ksefNumber } : { kind: 'DI' };
}

/** The text of the mark in a register column: the KSeF number itself, or the marker's name. */
export const markText = (mark: JpkKsefMark): string => (mark.kind === 'NrKSeF' ? mark.ksefNumber : mark.kind);
