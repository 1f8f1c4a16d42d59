import { createHmac, randomBytes } from 'node:crypto';

/**
 * OAuth 1.0a one-legged signature as WooCommerce verifies it over plain HTTP (class-wc-rest-authentication.php,
 * woocommerce-rules.md §3.3): base string METHOD & enc(home URL + path) & enc(sorted enc(k)=enc(v) joined by &),
 * key = consumer secret + "&", HMAC-SHA256, base64. Only query parameters and oauth_* are signed (a JSON body is
 * not). About 30 lines with node:crypto, so no dependency (oauth-1.0a is unmaintained and sorts encoded keys).
 */

/** RFC 3986 encoding, PHP's rawurlencode: only A-Z a-z 0-9 - . _ ~ stay literal. */
export const rfc3986 = (v: string): string => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export type OAuthInput = {
  method: string;
  /** Absolute URL without query: the store's home URL plus the request path. */
  url: string;
  query: [string, string][];
  consumerKey: string;
  consumerSecret: string;
  /** Seconds since the epoch; WooCommerce accepts ±15 minutes. */
  timestamp: number;
  nonce?: string;
  algorithm?: 'HMAC-SHA1' | 'HMAC-SHA256';
};

/** The oauth_* parameters to send, signature included. Every request (and every retry) needs a new nonce. */
export function signOAuth(input: OAuthInput): Record<string, string> {
  const algorithm = input.algorithm ?? 'HMAC-SHA256';
  const oauth: Record<string, string> = {
    oauth_consumer_key: input.consumerKey,
    oauth_nonce: input.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: algorithm,
    oauth_timestamp: String(input.timestamp),
  };
  // WooCommerce sorts by the raw keys with strcmp (byte order)
  const params = [...input.query, ...Object.entries(oauth)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const paramString = params.map(([k, v]) => `${rfc3986(k)}=${rfc3986(v)}`).join('&');
  const base = `${input.method.toUpperCase()}&${rfc3986(input.url)}&${rfc3986(paramString)}`;
  const signature = createHmac(algorithm === 'HMAC-SHA1' ? 'sha1' : 'sha256', `${input.consumerSecret}&`)
    .update(base)
    .digest('base64');
  return { ...oauth, oauth_signature: signature };
}
