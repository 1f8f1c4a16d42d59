import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WcError } from './auth';

export class HttpError extends Error {
  constructor(readonly wc: WcError | { status: number; code: string; message: string; data?: unknown }) {
    super(wc.message);
  }
}
export const fail = (status: number, code: string, message: string) => new HttpError({ status, code, message });

/** A route's answer: HTTP status and JSON body. */
export type Reply = [number, unknown];

export function int(raw: string, name: string, min: number, max: number): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new HttpError({
      status: 400,
      code: 'rest_invalid_param',
      message: `Invalid parameter(s): ${name}`,
      data: { status: 400, params: { [name]: `${name} must be between ${min} (inclusive) and ${max} (inclusive)` } },
    });
  }
  return n;
}

/** One page of a collection, with WordPress' X-WP-Total, X-WP-TotalPages and Link headers. */
export function paged<T>(all: T[], url: URL, res: ServerResponse, home: string): T[] {
  const page = int(url.searchParams.get('page') ?? '1', 'page', 1, Infinity);
  const perPage = int(url.searchParams.get('per_page') ?? '10', 'per_page', 1, 100);
  const totalPages = Math.ceil(all.length / perPage);
  res.setHeader('X-WP-Total', String(all.length));
  res.setHeader('X-WP-TotalPages', String(totalPages));
  // the Link URLs repeat every query parameter given, secrets included (woocommerce-rules.md §3.4)
  const link = (p: number) => {
    const u = new URL(url.pathname, home);
    for (const [k, v] of url.searchParams) if (k !== 'page') u.searchParams.set(k, v);
    u.searchParams.set('page', String(p));
    return u.toString();
  };
  const links = [];
  if (page > 1 && page - 1 <= totalPages) links.push(`<${link(page - 1)}>; rel="prev"`);
  if (page < totalPages) links.push(`<${link(page + 1)}>; rel="next"`);
  if (links.length) res.setHeader('Link', links.join(', '));
  return all.slice((page - 1) * perPage, page * perPage);
}

export async function readAll(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}

export function sendError(res: ServerResponse, e: { status: number; code: string; message: string; data?: unknown; headers?: Record<string, string> }) {
  res
    .writeHead(e.status, { 'content-type': 'application/json; charset=UTF-8', ...(e.headers ?? {}) })
    .end(JSON.stringify({ code: e.code, message: e.message, data: e.data ?? { status: e.status } }));
}
