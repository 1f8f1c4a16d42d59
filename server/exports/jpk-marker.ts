import { jpkMarkerOf } from '@/server/outage/mode-names';
import type { JpkMarker, OutageMode } from '@/server/outage/mode-names';

/**
 * What a JPK_V7M(3)/JPK_V7K(3) sales row carries in place of the KSeF number, from 1 February 2026 (the Ministry of
 * Finance brochure "Broszura informacyjna dot. struktury JPK_VAT z deklaracją od 1 lutego 2026 r.", its part on
 * NrKSeF, OFF, BFK and DI; the regulation of 15 October 2019 on JPK_VAT data, Dz.U. poz. 1988, as amended in 2025):
 * - NrKSeF: the invoice has its KSeF number on the day the JPK is filed, whatever mode it was issued in;
 * - otherwise the marker of the outage mode it was issued in (server/outage/modes.ts jpkMarkerOf): OFF for a failure
 *   (art. 106nf ust. 1), BFK for a total failure (art. 106ng), DI for offline24 (art. 106nda) and unavailability
 *   (art. 106nh ust. 1). A document the register lists has a KSeF number or was handed over offline
 *   (register-query.ts), so a row without a number always has a mode; an older one without it was offline24 (DI).
 */
export type JpkKsefMark = { kind: 'NrKSeF'; ksefNumber: string } | { kind: JpkMarker };

export function jpkKsefMark(doc: { ksefNumber: string | null; outageMode?: OutageMode | null }): JpkKsefMark {
  return doc.ksefNumber ? { kind: 'NrKSeF', ksefNumber: doc.ksefNumber } : { kind: jpkMarkerOf(doc.outageMode ?? null) };
}

/** The text of the mark in a register column: the KSeF number itself, or the marker's name. */
export const markText = (mark: JpkKsefMark): string => (mark.kind === 'NrKSeF' ? mark.ksefNumber : mark.kind);
