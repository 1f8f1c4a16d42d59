import { NextResponse, type NextRequest } from 'next/server';
import { undecodablePath } from '@/server/http/undecodable-path';

/** Runs before routing: only a path Next.js could not decode is answered here (see undecodablePath). */
export function proxy(request: NextRequest): Response {
  if (!request.nextUrl.pathname.includes('%')) return NextResponse.next();
  return undecodablePath(request.nextUrl.pathname) ?? NextResponse.next();
}

/**
 * Only paths with a percent sign reach the proxy: for every request it sees, Next.js copies the body (so that both
 * could read it) and runs its middleware stage; on every request that was a third of the web's CPU per POST (issue 19).
 */
export const config = { matcher: '/(.*%.*)' };
