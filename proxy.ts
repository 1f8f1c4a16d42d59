import { NextResponse, type NextRequest } from 'next/server';
import { newId } from '@/server/ids';
import { errorObject } from '@/server/http/errors';
import { undecodablePath } from '@/server/http/undecodable-path';

/** Paths served by route handlers, which answer every method themselves; config.matcher repeats it (it must be a literal). */
const ROUTE_PATH = /^\/(v1(\/|$)|hooks\/|api\/|_next\/|healthz|readyz|metrics|openapi\.json)/;

const PAGE_METHODS = 'GET, HEAD, OPTIONS';
/** The app's pages and the dashboard's GET-only downloads; any other path is the catch-all's 404 route_not_found. */
const PAGE_PATH = /^\/(?:$|signin$|signup$|forgot-password$|reset-password\/|invite\/|dashboard(?:\/|$)|docs\/)/;

/**
 * Runs before routing: a path Next.js could not decode is answered here (see undecodablePath), and so are the
 * methods a page does not take (pages take GET and HEAD; the app has no server actions): OPTIONS, to which Next.js
 * would answer a bare 400, and any other, to which it would answer a bare 405 page.
 */
export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  const { method } = request;
  const otherMethod = method !== 'GET' && method !== 'HEAD' && !ROUTE_PATH.test(pathname);
  if (otherMethod && (method === 'OPTIONS' || PAGE_PATH.test(pathname))) {
    const headers = { Allow: PAGE_METHODS, 'Request-Id': newId('req'), 'Cache-Control': 'no-store' };
    if (method === 'OPTIONS') return new Response(null, { status: 204, headers });
    const body = JSON.stringify({ error: errorObject('method_not_allowed', undefined, `A page takes ${PAGE_METHODS}, not ${method}.`) });
    return new Response(body, { status: 405, headers: { ...headers, 'Content-Type': 'application/json' } });
  }
  if (!pathname.includes('%')) return NextResponse.next();
  return undecodablePath(pathname) ?? NextResponse.next();
}

/**
 * Only paths with a percent sign, and pages, reach the proxy: for every request it sees, Next.js copies the body (so
 * that both could read it) and runs its middleware stage; on every request that was a third of the web's CPU per
 * POST (issue 19). The API's routes (ROUTE_PATH) stay out of it.
 */
export const config = { matcher: ['/(.*%.*)', '/((?!v1/|v1$|hooks/|api/|_next/|healthz|readyz|metrics|openapi\\.json).*)'] };
