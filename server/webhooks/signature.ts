import { createHmac } from 'node:crypto';

const unixNow = (): number => Math.floor(Date.now() / 1000);

/**
 * `KSeF-Signature` value (spec 6.2): hex HMAC-SHA256 keyed by the endpoint secret over `<t>.<body>`.
 * Sign the exact bytes that go on the wire: a body re-serialised after signing no longer verifies.
 */
export function signatureHeader(secret: string, body: string, t: number = unixNow()): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
