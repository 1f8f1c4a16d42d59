/**
 * KSeF transport: fetch with a time-out, JSON or XML bodies, and one mapping of failures. Anything worth retrying
 * later (network errors, time-outs, 5xx, HTML pages from a proxy, 429) becomes KsefUnavailableError; a KSeF
 * refusal (4xx with ExceptionResponse or problem+json) becomes KsefApiError with KSeF's own code.
 */
import { isDatabaseUnavailable } from '@/server/db/faults';
import { SYSTEM_WARNING_HEADER } from './system-warning';

export class KsefUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds?: number,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'KsefUnavailableError';
  }
}

export class KsefApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly description: string,
    readonly details: string[],
    readonly body: unknown,
  ) {
    super(`KSeF ${status} ${code}: ${description}${details.length ? ` (${details.join('; ')})` : ''}`);
    this.name = 'KsefApiError';
  }
}

export type KsefRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the base URL (`/auth/challenge`), or an absolute URL KSeF handed out (upload and UPO links). */
  path: string;
  bearer?: string;
  json?: unknown;
  body?: Uint8Array | string;
  contentType?: string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
};

export type KsefResponse = { status: number; headers: Headers; text: string };

export type KsefHttp = {
  readonly baseUrl: string;
  send(req: KsefRequest): Promise<KsefResponse>;
  json<T>(req: KsefRequest): Promise<T>;
  /** For 204 answers and XML downloads. */
  text(req: KsefRequest): Promise<KsefResponse>;
};

/** A response that carried `X-System-Warning`: the request it answered and the header's value. */
export type KsefWarningSeen = { method: KsefRequest['method']; path: string; status: number; value: string; responseText: string };

export type KsefHttpOptions = {
  baseUrl: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Told of every warned response, success or refusal, before the caller sees the answer. */
  onWarning?: (seen: KsefWarningSeen) => Promise<void>;
};

/** The path below the base URL, or a handed-out URL's own path: what a warning is recorded against. */
function pathOf(baseUrl: string, reqPath: string): string {
  if (!/^https?:\/\//.test(reqPath)) return reqPath.split('?')[0] ?? reqPath;
  const base = new URL(baseUrl).pathname.replace(/\/$/, '');
  const path = new URL(reqPath).pathname;
  return path.startsWith(`${base}/`) ? path.slice(base.length) : path;
}

function urlFor(baseUrl: string, req: KsefRequest): string {
  const url = new URL(/^https?:\/\//.test(req.path) ? req.path : baseUrl.replace(/\/$/, '') + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

/** Retry-After is seconds in KSeF; an HTTP date is tolerated. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

type ErrorBody = {
  exception?: { exceptionDetailList?: { exceptionCode?: number; exceptionDescription?: string | null; details?: string[] | null }[] };
  errors?: { code?: number; description?: string; details?: string[] | null }[];
  title?: string;
  detail?: string;
  reasonCode?: string;
};

function toApiError(status: number, text: string): KsefApiError | undefined {
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const ex = body.exception?.exceptionDetailList?.[0];
  if (ex) return new KsefApiError(status, ex.exceptionCode ?? 0, ex.exceptionDescription ?? '', ex.details ?? [], body);
  const pe = body.errors?.[0];
  if (pe) return new KsefApiError(status, pe.code ?? 0, pe.description ?? body.title ?? '', pe.details ?? [], body);
  if (body.title || body.detail) {
    const details = [body.detail, body.reasonCode].filter((d): d is string => Boolean(d));
    return new KsefApiError(status, 0, body.title ?? '', details, body);
  }
  return undefined;
}

const looksLikeHtml = (text: string, type: string | null) => (type ?? '').includes('html') || /^\s*<(!doctype|html)/i.test(text);

export function createKsefHttp({ baseUrl, timeoutMs = 30_000, fetch: doFetch = fetch, onWarning }: KsefHttpOptions): KsefHttp {
  async function send(req: KsefRequest): Promise<KsefResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    let body: Uint8Array | string | undefined = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.contentType) headers['content-type'] = req.contentType;
    if (req.bearer) headers.authorization = `Bearer ${req.bearer}`;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(urlFor(baseUrl, req), { method: req.method, headers, body: body as BodyInit | undefined, signal: AbortSignal.timeout(timeoutMs) });
      text = await res.text();
    } catch (err) {
      // the throttle in front of the fetch reads PostgreSQL: its database failing is not KSeF being down
      if (isDatabaseUnavailable(err)) throw err;
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new KsefUnavailableError(timedOut ? `KSeF did not answer within ${timeoutMs} ms` : `KSeF unreachable: ${describeNetworkError(err)}`);
    }
    const warning = res.headers.get(SYSTEM_WARNING_HEADER);
    if (warning && onWarning) await onWarning({ method: req.method, path: pathOf(baseUrl, req.path), status: res.status, value: warning, responseText: text });
    if (res.status === 429) {
      throw new KsefUnavailableError('KSeF rate limit (429)', parseRetryAfter(res.headers.get('retry-after')) ?? 1, 429);
    }
    if (res.status >= 500) {
      throw new KsefUnavailableError(`KSeF answered ${res.status}`, parseRetryAfter(res.headers.get('retry-after')), res.status);
    }
    if (res.status >= 400) {
      const apiError = toApiError(res.status, text);
      if (apiError) throw apiError;
      // A 4xx HTML page comes from a proxy in front of KSeF, not from KSeF: treat it as an outage.
      if (looksLikeHtml(text, res.headers.get('content-type')))
        throw new KsefUnavailableError(`KSeF gateway answered ${res.status} with a page`, undefined, res.status);
      throw new KsefApiError(res.status, 0, text.slice(0, 200) || `HTTP ${res.status}`, [], text);
    }
    return { status: res.status, headers: res.headers, text };
  }

  return {
    baseUrl,
    send,
    text: send,
    async json<T>(req: KsefRequest): Promise<T> {
      const res = await send(req);
      try {
        return JSON.parse(res.text) as T;
      } catch {
        throw new KsefUnavailableError(`KSeF answered ${res.status} without JSON`, undefined, res.status);
      }
    },
  };
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
