/**
 * The outage modes' names and JPK markers, pure (no imports), so the database schema and the dashboard's bundle can read them;
 * modes.ts holds what each means.
 */
export const OUTAGE_MODES = ['offline24', 'unavailable', 'failure', 'total_failure'] as const;
export type OutageMode = (typeof OUTAGE_MODES)[number];
/** The modes the Ministry announces (a notice, or the status service); offline24 needs none. */
export const NOTICE_MODES = ['unavailable', 'failure', 'total_failure'] as const;
export type NoticeMode = (typeof NOTICE_MODES)[number];
/** The JPK_V7 marker of a sales row without a KSeF number. */
export type JpkMarker = 'OFF' | 'BFK' | 'DI';

/**
 * The JPK_V7M(3)/V7K(3) marker of a sales row (regulation on JPK_VAT data, Dz.U. 2019 poz. 1988 as amended in 2025;
 * Ministry of Finance brochure on JPK_VAT from 1 February 2026): the KSeF number once KSeF has given one, whatever
 * the mode; else OFF for a failure (art. 106nf ust. 1, no JPK correction follows), BFK for an invoice issued outside
 * KSeF (a total failure, art. 106ng), and DI for offline24 (art. 106nda) and unavailability (art. 106nh ust. 1),
 * which the seller corrects to the KSeF number once KSeF numbers the invoice.
 */
export function jpkMarkerOf(mode: OutageMode | null): JpkMarker {
  if (mode === 'failure') return 'OFF';
  if (mode === 'total_failure') return 'BFK';
  return 'DI';
}
