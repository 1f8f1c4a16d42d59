import { createHmac, timingSafeEqual } from 'node:crypto';

export type WebhookSignatureFailure = 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';
export type WebhookSignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: WebhookSignatureFailure };

const SIGNATURE_BYTES = 32; // SHA-256

/**
 * Checks a `KSeF-Signature` header (spec 6.3) and says why it failed. `rawBody` must be the bytes as received:
 * parsing and re-serialising the JSON changes them. Several `v1` entries are accepted (secret rotation);
 * `now` is Unix seconds.
 */
export function checkWebhookSignature(
  rawBody: string | Buffer,
  header: string,
  secret: string,
  toleranceSeconds = 300,
  now: number = Math.floor(Date.now() / 1000),
): WebhookSignatureCheck {
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: 'malformed_header' };
  // Too old is a replay; too far ahead is a skewed or forged clock. Both fail the same way.
  if (Math.abs(now - parsed.t) > toleranceSeconds) return { ok: false, reason: 'timestamp_out_of_tolerance' };
  const expected = createHmac('sha256', secret).update(`${parsed.t}.`).update(rawBody).digest();
  let matched = false;
  for (const candidate of parsed.signatures) {
    // Every entry is compared, so the time taken does not reveal which one (if any) matched.
    if (timingSafeEqual(candidate, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp: parsed.t } : { ok: false, reason: 'no_matching_signature' };
}

/** True when the header is a valid, fresh signature of `rawBody` under `secret`. */
export function verifyWebhookSignature(rawBody: string | Buffer, header: string, secret: string, toleranceSeconds = 300, now?: number): boolean {
  return checkWebhookSignature(rawBody, header, secret, toleranceSeconds, now).ok;
}

/** `t=<unix>,v1=<hex>[,v1=<hex>…]`; unknown schemes are ignored, a missing or repeated `t` is not. */
function parseHeader(header: string): { t: number; signatures: Buffer[] } | null {
  if (typeof header !== 'string') return null;
  let t: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1' && new RegExp(`^[0-9a-fA-F]{${SIGNATURE_BYTES * 2}}$`).test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  return t === undefined || signatures.length === 0 ? null : { t, signatures };
}
