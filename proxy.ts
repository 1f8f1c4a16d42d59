import { NextResponse, type NextRequest } from 'next/server';
import { newId } from '@/server/ids';
import { undecodablePath } from '@/server/http/undecodable-path';

/** Paths served by route handlers, which answer every method themselves; config.matcher repeats it (it must be a literal). */
const ROUTE_PATH = /^\/(v1(\/|$)|hooks\/|api\/|_next\/|healthz|readyz|metrics|openapi\.json)/;

/**
 * Runs before routing: a path Next.js could not decode is answered here (see undecodablePath), and so is OPTIONS on
 * a page, to which Next.js would answer a bare 400: pages take GET and HEAD.
 */
export function proxy(request: NextRequest): Response {
  const { pathname } = request.nextUrl;
  if (request.method === 'OPTIONS' && !ROUTE_PATH.test(pathname))
    return new Response(null, { status: 204, headers: { Allow: 'GET, HEAD, OPTIONS', 'Request-Id': newId('req') } });
  if (!pathname.includes('%')) return NextResponse.next();
  return undecodablePath(pathname) ?? NextResponse.next();
}

/**
 * Only paths with a percent sign, and pages, reach the proxy: for every request it sees, Next.js copies the body (so
 * that both could read it) and runs its middleware stage; on every request that was a third of the web's CPU per
 * POST (issue 19). The API's routes (ROUTE_PATH) stay out of it.
 */
export const config = { matcher: ['/(.*%.*)', '/((?!v1/|v1$|hooks/|api/|_next/|healthz|readyz|metrics|openapi\\.json).*)'] };
