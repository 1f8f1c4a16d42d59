/**
 * The outage modes' names, pure (no imports), so the database schema and the dashboard's bundle can read them;
 * modes.ts holds what each means.
 */
export const OUTAGE_MODES = ['offline24', 'unavailable', 'failure', 'total_failure'] as const;
export type OutageMode = (typeof OUTAGE_MODES)[number];
/** The modes the Ministry announces (a notice, or the status service); offline24 needs none. */
export const NOTICE_MODES = ['unavailable', 'failure', 'total_failure'] as const;
export type NoticeMode = (typeof NOTICE_MODES)[number];
/** The JPK_V7 marker of a sales row without a KSeF number (modes.ts jpkMarkerOf). */
export type JpkMarker = 'OFF' | 'BFK' | 'DI';
