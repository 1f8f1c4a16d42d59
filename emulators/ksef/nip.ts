/** NIP check digit weights (the Java client's tests make their NIPs with them, README §5.3). */
export const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7] as const;

/**
 * Whether a context NIP can exist: ten digits whose weighted sum mod 11 is the last digit. A NIP failing it was never
 * issued, so KSeF has no such context (production verifies NIP checksums, README §3; what TE does is undocumented,
 * README §5.3, and the emulator takes the stricter reading so that a typo shows at the connection check).
 */
export function nipExists(nip: string): boolean {
  if (!/^\d{10}$/.test(nip)) return false;
  const check = NIP_WEIGHTS.reduce((sum, w, i) => sum + w * Number(nip[i]), 0) % 11;
  return check < 10 && check === Number(nip[9]);
}
