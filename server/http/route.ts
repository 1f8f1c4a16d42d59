import type { Db } from '../db/client';
import { db as sharedDb } from '../db/client';
import type { Scope } from '../db/scope';
import { ERRORS } from '../errors';
import { newId } from '../ids';
import { authenticate } from './authenticate';
import { parseJsonBody, readBody } from './body';
import { errorObject, toErrorResponse } from './errors';
import { checkIdempotencyKey, withIdempotency, type StoredResponse } from './idempotency';
import { quotaHeaders } from './rate-limit';

export type EndpointRequest = { body: unknown; url: URL; params: Record<string, string> };
export type EndpointContext<I> = { db: Db; scope: Scope; input: I; requestId: string };
/** A JSON body, or raw bytes with their content type (PDF, XML downloads). */
export type EndpointResult =
  | { status: number; body: unknown; headers?: Record<string, string> }
  | { status: number; raw: Buffer | string; contentType: string; headers?: Record<string, string> };

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
    routes[method] = ep ? (req, ctx) => runEndpoint(ep, req, ctx) : async () => errorOnly('method_not_allowed', { Allow: allow });
  }
  return routes;
}

/** Answer for paths no route serves (spec 4: any path, with or without /v1). */
export const routeNotFound: Handler = async () => errorOnly('route_not_found');

async function runEndpoint<I>(ep: Endpoint<I>, req: Request, ctx: RouteContext): Promise<Response> {
  const requestId = newId('req');
  let headers: Record<string, string> = {};
  try {
    const raw = req.method === 'GET' || req.method === 'DELETE' ? '' : await readBody(req);
    const db = routeDb();
    const key = await authenticate(db, req);
    headers = quotaHeaders(key.quota);
    const url = new URL(req.url);
    const params = Object.fromEntries(Object.entries((await ctx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join('/') : v]));
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
    return respond(out.status, JSON.stringify(out.body), 'application/json', { ...headers, ...out.headers }, requestId);
  } catch (err) {
    const r = toErrorResponse(err);
    return respond(r.status, JSON.stringify(r.body), 'application/json', { ...headers, ...r.headers }, requestId);
  }
}

function stored(out: EndpointResult): StoredResponse {
  if ('raw' in out) throw new Error('an idempotent endpoint answers JSON');
  return { status: out.status, body: JSON.stringify(out.body) };
}

function errorOnly(code: 'route_not_found' | 'method_not_allowed', extra: Record<string, string> = {}): Response {
  return respond(ERRORS[code].status, JSON.stringify({ error: errorObject(code) }), 'application/json', extra, newId('req'));
}

function respond(status: number, body: string | Buffer, contentType: string, headers: Record<string, string>, requestId: string): Response {
  return new Response(typeof body === 'string' ? body : new Uint8Array(body), {
    status,
    headers: { ...headers, 'Content-Type': contentType, 'Request-Id': requestId, 'Cache-Control': 'no-store' },
  });
}
