import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Mode } from '@/server/db/schema';
import { deliveryFailure } from './delivery-failures';
import { bareHost, privateTargetsAllowed } from './endpoint-url';
import { isPublicAddress } from './public-address';
import { signatureHeader } from './signature';

/** One attempt may take this long in all, connecting and reading the answer included (README: webhooks). */
export const DELIVERY_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'KSeF-Relay-Webhooks/1.0';
/** The delivery log keeps the start of the receiver's answer only. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type SendResult = {
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
};

/**
 * `allowPrivate` defaults to the operator's ALLOW_PRIVATE_TARGETS for test mode; live mode never.
 * `isPublic` judges the connected address for keeping the answer's excerpt (tests play a public receiver with it).
 */
export type SendOptions = { mode: Mode; timeoutMs?: number; allowPrivate?: boolean; isPublic?: (address: string) => boolean };

/** Connects only when every address of the host is public: checked on the address used, so DNS rebinding cannot slip through. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '', 0);
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked || addresses.length === 0) {
      return callback(Object.assign(new Error(deliveryFailure.resolvesPrivate(hostname, blocked?.address ?? 'nothing')), { code: 'ENONPUBLIC' }), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

// Separate pools: a socket opened without the address check must never carry a delivery that needs it.
const agents = {
  anyAddress: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
  publicOnly: { http: new http.Agent({ keepAlive: true, lookup: publicOnlyLookup }), https: new https.Agent({ keepAlive: true, lookup: publicOnlyLookup }) },
} as const;

/**
 * POSTs the stored event body, signed now, and reports what happened; it never throws. 2xx is delivered;
 * redirects are not followed (the URL registered is the one that receives events).
 */
export async function sendWebhook(rawUrl: string, eventId: string, body: string, secret: string, o: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null): SendResult => ({
    delivered: false,
    statusCode,
    durationMs: elapsed(),
    responseBody,
    error,
  });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return failed(deliveryFailure.invalidUrl());
  }
  const host = bareHost(url);
  const allowPrivate = o.mode === 'test' && (o.allowPrivate ?? privateTargetsAllowed(o.mode));
  if (o.mode === 'live' && url.protocol !== 'https:') return failed(deliveryFailure.liveHttps());
  // an address in the URL is connected to without a lookup: it is judged here
  if (!allowPrivate && isIP(host) && !isPublicAddress(host)) return failed(deliveryFailure.notPublic(host));
  const secure = url.protocol === 'https:';
  const payload = Buffer.from(body, 'utf8');
  const timeoutMs = o.timeoutMs ?? DELIVERY_TIMEOUT_MS;

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(r);
    };
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: agents[allowPrivate ? 'anyAddress' : 'publicOnly'][secure ? 'https' : 'http'],
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': payload.length,
        'User-Agent': USER_AGENT,
        'KSeF-Event-Id': eventId,
        'KSeF-Signature': signatureHeader(secret, body),
      },
    });
    let statusCode: number | null = null;
    let excerpt = Buffer.alloc(0);
    // what a host inside the service's network answers is never kept: the delivery log would show it to the tenant
    let keep = false;
    const kept = () => (keep ? text(excerpt) : null);
    const deadline = setTimeout(() => {
      req.destroy();
      finish(failed(deliveryFailure.timedOut(timeoutMs, statusCode !== null), statusCode, kept()));
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish(failed(describeError(err), statusCode, statusCode === null ? null : kept())));
    req.on('response', (res) => {
      statusCode = res.statusCode ?? 0;
      keep = (o.isPublic ?? isPublicAddress)(res.socket?.remoteAddress ?? '');
      res.on('data', (chunk: Buffer) => {
        // Read to the end so the socket can be reused, but keep only the first kilobyte.
        if (keep && excerpt.length < RESPONSE_EXCERPT_BYTES) excerpt = Buffer.concat([excerpt, chunk]).subarray(0, RESPONSE_EXCERPT_BYTES);
      });
      res.on('error', (err) => finish(failed(describeError(err), statusCode, kept())));
      res.on('end', () => {
        const code = statusCode ?? 0;
        const delivered = code >= 200 && code < 300;
        const error = delivered ? null : code >= 300 && code < 400 ? deliveryFailure.redirect(res.headers.location) : deliveryFailure.answered(code);
        finish({ delivered, statusCode: code, durationMs: elapsed(), responseBody: kept(), error });
      });
    });
    req.end(payload);
  });
}

/** PostgreSQL text cannot hold NUL; a cut multi-byte character becomes U+FFFD. */
const text = (bytes: Buffer): string => bytes.toString('utf8').replace(/\u0000/g, '');

function describeError(err: NodeJS.ErrnoException): string {
  if (err.code === 'ENONPUBLIC') return err.message;
  return deliveryFailure.network(err.code, err.message);
}
