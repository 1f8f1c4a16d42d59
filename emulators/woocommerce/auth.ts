import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * WooCommerce's REST authentication (class-wc-rest-authentication.php, woocommerce-rules.md §3): Basic or
 * consumer_key/consumer_secret query parameters only over HTTPS, otherwise OAuth 1.0a one-legged with HMAC-SHA1
 * or HMAC-SHA256, ±15 minutes and remembered nonces. Written here from those rules, independently of the
 * service's signer, so the emulator checks the client rather than mirroring it.
 */

export type ApiKey = { consumerKey: string; consumerSecret: string; permissions: 'read' | 'write' | 'read_write'; nonces: Map<string, number> };
export type AuthResult = { key: ApiKey } | { anonymous: true } | { error: WcError };
export type WcError = { status: number; code: string; message: string; headers?: Record<string, string> };

const authError = (message: string, headers?: Record<string, string>): WcError => ({
  status: 401,
  code: 'woocommerce_rest_authentication_error',
  message,
  headers,
});
const WINDOW_SECONDS = 15 * 60;

/** PHP rawurlencode: RFC 3986 unreserved characters stay, everything else is %XX. */
const enc = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

type Request = {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams | null;
  authorization: string | undefined;
  ssl: boolean;
  home: string;
  now: Date;
};

export function authenticate(req: Request, keys: Map<string, ApiKey>): AuthResult {
  if (req.ssl) {
    let user = req.query.get('consumer_key');
    let pass = req.query.get('consumer_secret');
    if (!user || !pass) {
      const basic = /^Basic\s+(.+)$/i.exec(req.authorization ?? '');
      if (basic) {
        const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
        const at = decoded.indexOf(':');
        [user, pass] = at < 0 ? [decoded, ''] : [decoded.slice(0, at), decoded.slice(at + 1)];
      }
    }
    if (user && pass) {
      const key = keys.get(user);
      // an unknown key is no authentication error on HTTPS: the request runs anonymously (§3.5)
      if (!key) return { anonymous: true };
      if (!safeEqual(key.consumerSecret, pass)) {
        return {
          error: authError('Consumer secret is invalid.', {
            'WWW-Authenticate': 'Basic realm="WooCommerce API. Use a consumer key in the username field and a consumer secret in the password field."',
          }),
        };
      }
      return { key };
    }
  }
  return oauth(req, keys);
}

function oauth(req: Request, keys: Map<string, ApiKey>): AuthResult {
  const params = new Map<string, string>();
  for (const source of [req.query, req.form]) for (const [k, v] of source ?? []) params.set(k, v);
  const header = /^OAuth\s+(.+)$/i.exec(req.authorization ?? '');
  if (header) {
    for (const part of header[1]!.split(',')) {
      const m = /^\s*([^=\s]+)\s*=\s*"?([^"]*)"?\s*$/.exec(part);
      if (m && m[1]!.startsWith('oauth_')) params.set(m[1]!, decodeURIComponent(m[2]!));
    }
  }
  const required = ['oauth_consumer_key', 'oauth_timestamp', 'oauth_nonce', 'oauth_signature', 'oauth_signature_method'];
  const missing = required.filter((k) => !params.get(k));
  if (missing.length === required.length) return { anonymous: true };
  if (missing.length)
    return { error: { status: 401, code: 'woocommerce_rest_authentication_missing_parameter', message: `Missing OAuth parameter(s) ${missing.join(', ')}` } };

  const key = keys.get(params.get('oauth_consumer_key')!);
  if (!key) return { error: authError('Consumer key is invalid.') };
  const method = params.get('oauth_signature_method')!;
  const algorithm = method === 'HMAC-SHA1' ? 'sha1' : method === 'HMAC-SHA256' ? 'sha256' : null;
  if (!algorithm) return { error: authError('Invalid signature - signature method is invalid.') };

  const given = decodeURIComponent(params.get('oauth_signature')!.replace(/ /g, '+'));
  params.delete('oauth_signature');
  // the URL is the site's home URL + request path, scheme from is_ssl(), never the Host header (§3.3)
  const url = new URL(req.path.replace(/^\//, ''), req.home);
  url.protocol = req.ssl ? 'https:' : 'http:';
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const paramString = sorted.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  const base = `${req.method.toUpperCase()}&${enc(url.toString())}&${enc(paramString)}`;
  const expected = createHmac(algorithm, `${key.consumerSecret}&`).update(base).digest('base64');
  if (!safeEqual(expected, given)) return { error: authError('Invalid signature - provided signature does not match.') };

  const timestamp = Number(params.get('oauth_timestamp'));
  const now = Math.floor(req.now.getTime() / 1000);
  if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > WINDOW_SECONDS) return { error: authError('Invalid timestamp.') };
  for (const [nonce, at] of key.nonces) if (at < now - WINDOW_SECONDS) key.nonces.delete(nonce);
  const nonce = params.get('oauth_nonce')!;
  if (key.nonces.has(nonce)) return { error: authError('Invalid nonce - nonce has already been used.') };
  key.nonces.set(nonce, timestamp);
  return { key };
}

/** rest_pre_dispatch: the key's permission against the method, before routing (§3.5). */
export function checkPermission(key: ApiKey, method: string): WcError | null {
  const m = method.toUpperCase();
  if (m === 'OPTIONS') return null;
  if (m === 'GET' || m === 'HEAD') return key.permissions === 'write' ? authError('The API key provided does not have read permissions.') : null;
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(m))
    return key.permissions === 'read' ? authError('The API key provided does not have write permissions.') : null;
  return authError('Unknown request method.');
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
