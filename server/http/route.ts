import 'server-only';
import type { Db } from '@/server/db/client';
import { db as sharedDb } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { AppError } from '@/server/errors';
import { ERRORS } from '@/server/facts/error-codes';
import { newId } from '@/server/ids';
import { addLogContext, log, withLogContext } from '@/server/observability/log';
import { metrics, routeTemplate } from '@/server/observability/metrics';
import { authenticate } from './authenticate';
import { parseJsonBody, readBody } from './body';
import { errorObject, toErrorResponse } from './errors';
import { checkIdempotencyKey, withIdempotency, type StoredResponse } from './idempotency';
import { quotaHeaders, uncountedQuotaHeaders } from './rate-limit';
import { isSafeText } from './safe-text';

export type EndpointRequest = { body: unknown; url: URL; params: Record<string, string> };
export type EndpointContext<I> = { db: Db; scope: Scope; input: I; requestId: string };
/** A JSON body, raw bytes with their content type (PDF, XML downloads), or a stream made while it is read (exports). */
export type EndpointResult =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; raw: Buffer | string; contentType: string; headers?: Record<string, string> }
  | { status: number; stream: ReadableStream<Uint8Array>; contentType: string; headers?: Record<string, string> };

export type Endpoint<I> = {
  /** Parses body, query and path parameters; throws AppError with the spec's code and param. */
  input?: (req: EndpointRequest) => I;
  /** Takes `Idempotency-Key`; `replayStatus` is the status a replay answers with (spec 4.2: 200). */
  idempotent?: { replayStatus?: number };
  handle: (ctx: EndpointContext<I>) => Promise<EndpointResult>;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };
type Handler = (req: Request, ctx: RouteContext) => Promise<Response>;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** The database the routes use; tests of the wrapper point it elsewhere. */
let routeDb: () => Db = sharedDb;
export const setRouteDb = (get: () => Db) => {
  routeDb = get;
};

/**
 * Builds every method of a /v1 route file: the given endpoints run through the pipeline of DESIGN.md (request id,
 * body limit, authentication, rate limit, idempotency, validation, handler, error envelope); the other methods
 * answer 405 method_not_allowed.
 */
export function v1Routes(endpoints: Partial<Record<Method, Endpoint<any>>>): Record<Method, Handler> {
  const allow = Object.keys(endpoints).join(', ');
  const routes = {} as Record<Method, Handler>;
  for (const method of METHODS) {
    const ep = endpoints[method];
    routes[method] = ep
      ? (req, ctx) => observed(req, false, (requestId) => runEndpoint(ep, req, ctx, requestId))
      : (req) => observed(req, false, (requestId) => routingError(req, 'method_not_allowed', requestId, { Allow: allow }));
  }
  return routes;
}

/**
 * For a route file outside /v1 that serves only some methods: the others get 405 with the envelope and Allow
 * (Next.js's own 405 has no body).
 */
export const methodNotAllowed =
  (allow: string): Handler =>
  async () =>
    respond(405, JSON.stringify({ error: errorObject('method_not_allowed') }), 'application/json', { Allow: allow }, newId('req'));

/** Answer for paths no route serves (spec 4: any path, with or without /v1). */
export const routeNotFound: Handler = (req) => observed(req, true, (requestId) => routingError(req, 'route_not_found', requestId));

/** Request id, log context, one access-log line and the request metric around every /v1 answer (and the store hook's). */
export async function observed(req: Request, unmatched: boolean, answer: (requestId: string) => Promise<Response>): Promise<Response> {
  const requestId = newId('req');
  const started = performance.now();
  return withLogContext({ requestId }, async () => {
    const res = await answer(requestId);
    const seconds = (performance.now() - started) / 1000;
    // the path template only: ids become {id}, query strings (personal data) are never logged
    const route = unmatched ? 'unmatched' : routeTemplate(new URL(req.url).pathname);
    metrics().httpRequests.observe({ route, method: req.method, status: String(res.status) }, seconds);
    const line = { method: req.method, route, status: res.status, ms: Math.round(seconds * 1000) };
    if (res.status >= 500) log.error(line, 'request');
    else log.info(line, 'request');
    return res;
  });
}

async function runEndpoint<I>(ep: Endpoint<I>, req: Request, ctx: RouteContext, requestId: string): Promise<Response> {
  let headers = uncountedQuotaHeaders();
  try {
    const raw = req.method === 'GET' || req.method === 'DELETE' ? '' : await readBody(req);
    const db = routeDb();
    const key = await authenticate(db, req);
    addLogContext({ accountId: key.scope.accountId, mode: key.scope.mode });
    headers = quotaHeaders(key.quota);
    const url = new URL(req.url);
    const params = Object.fromEntries(Object.entries((await ctx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
    refuseUnsafeText(url, params);
    const execute = async () => {
      const input = (ep.input ? ep.input({ body: parseJsonBody(raw), url, params }) : undefined) as I;
      return ep.handle({ db, scope: key.scope, input, requestId });
    };
    const idemKey = ep.idempotent ? req.headers.get('idempotency-key') : null;
    if (idemKey !== null) {
      checkIdempotencyKey(idemKey);
      const fingerprint = `${req.method} ${url.pathname}${url.search}\n${raw}`;
      const out = await withIdempotency(db, key.scope, idemKey, fingerprint, async () => stored(await execute()), ep.idempotent?.replayStatus);
      return respond(out.status, out.body, 'application/json', headers, requestId);
    }
    const out = await execute();
    if ('raw' in out) return respond(out.status, out.raw, out.contentType, { ...headers, ...out.headers }, requestId);
    if ('stream' in out) return respond(out.status, out.stream, out.contentType, { ...headers, ...out.headers }, requestId);
    return respond(out.status, JSON.stringify(out.body), 'application/json', { ...headers, ...out.headers }, requestId);
  } catch (err) {
    const r = toErrorResponse(err);
    return respond(r.status, JSON.stringify(r.body), 'application/json', { ...headers, ...r.headers }, requestId);
  }
}

/** Query values and path parameters reach SQL: NUL or an unpaired surrogate in them is a 400, not a database error. */
function refuseUnsafeText(url: URL, params: Record<string, string>) {
  for (const [name, value] of [...url.searchParams.entries(), ...Object.entries(params)]) {
    if (isSafeText(name) && isSafeText(value)) continue;
    const param = isSafeText(name) ? name : 'query';
    throw new AppError('parameter_invalid', param, `Invalid ${param}: NUL characters and unpaired surrogates are not allowed.`);
  }
}

function stored(out: EndpointResult): StoredResponse {
  if (!('body' in out)) throw new Error('an idempotent endpoint answers JSON');
  return { status: out.status, body: JSON.stringify(out.body) };
}

/**
 * 404 route_not_found and 405 method_not_allowed carry the RateLimit-* headers like every answer (spec 8). A request
 * with a valid key is counted in the key's window like any other (and is 429 past the limit); one without a usable
 * key is not counted, and its headers say so: the whole limit remains.
 */
async function routingError(
  req: Request,
  code: 'route_not_found' | 'method_not_allowed',
  requestId: string,
  extra: Record<string, string> = {},
): Promise<Response> {
  let headers = uncountedQuotaHeaders();
  try {
    if (req.headers.get('authorization')) {
      const key = await authenticate(routeDb(), req);
      addLogContext({ accountId: key.scope.accountId, mode: key.scope.mode });
      headers = quotaHeaders(key.quota);
    }
  } catch (err) {
    // a refused key leaves the answer a routing error; over the limit (or a failure) answers as any endpoint does
    if (!(err instanceof AppError) || err.code === 'rate_limited') {
      const r = toErrorResponse(err);
      return respond(r.status, JSON.stringify(r.body), 'application/json', r.headers, requestId);
    }
  }
  return respond(ERRORS[code].status, JSON.stringify({ error: errorObject(code) }), 'application/json', { ...headers, ...extra }, requestId);
}

function respond(
  status: number,
  body: string | Buffer | ReadableStream<Uint8Array>,
  contentType: string,
  headers: Record<string, string>,
  requestId: string,
): Response {
  return new Response(typeof body === 'string' || body instanceof ReadableStream ? body : new Uint8Array(body), {
    status,
    headers: { ...headers, 'Content-Type': contentType, 'Request-Id': requestId, 'Cache-Control': 'no-store' },
  });
}
