import { X509Certificate } from 'node:crypto';
import { EXPIRY_WARNING_MS } from './offline-certificate';

/**
 * When a credential stops working, where KSeF or the certificate says it.
 * - Certificate (login or Offline): its notAfter; KSeF issues them for at most 2 years.
 * - KSeF token: tokens issued until 31.12.2026 are announced to stop working on 30.11.2027 (KSeF API changelog,
 *   2026; not in shared/ksef's 2.6.0 OpenAPI). A token's issue day is the date its reference number starts with
 *   (`20261010-EC-…|nip-…|…`, README §5.2). Tokens issued later get a lifetime of 1–365 days from a token
 *   endpoint announced for 2027 that no published OpenAPI describes yet, so their end is not known: null.
 */
export const LAST_DAY_OF_2026_TOKENS = '2026-12-31';
/** 30.11.2027 00:00 in Warsaw (CET, UTC+1): the first moment such a token no longer works. */
export const END_OF_2026_TOKENS = new Date('2027-11-29T23:00:00Z');

/** The issue day (YYYY-MM-DD) a KSeF token carries in its reference number, or null for another form. */
export function tokenIssueDay(token: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})-EC-/.exec(token.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

export function tokenValidTo(token: string): Date | null {
  const day = tokenIssueDay(token);
  return day !== null && day <= LAST_DAY_OF_2026_TOKENS ? END_OF_2026_TOKENS : null;
}

export function credentialValidTo(credential: { kind: 'token'; token: string } | { kind: 'certificate'; certificatePem: string }): Date | null {
  return credential.kind === 'certificate' ? new Date(new X509Certificate(credential.certificatePem).validTo) : tokenValidTo(credential.token);
}

export type ExpiryState = 'unknown' | 'valid' | 'expiring' | 'expired';

export function expiryState(validTo: Date | null, now: Date): ExpiryState {
  if (!validTo) return 'unknown';
  if (validTo.getTime() <= now.getTime()) return 'expired';
  // the same 30 days as the attention list's ksef_credentials_expiring
  return validTo.getTime() - now.getTime() <= EXPIRY_WARNING_MS ? 'expiring' : 'valid';
}
