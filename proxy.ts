import { NextResponse, type NextRequest } from 'next/server';
import { undecodablePath } from '@/server/http/undecodable-path';

/** Runs before routing: only a path Next.js could not decode is answered here (see undecodablePath). */
export function proxy(request: NextRequest): Response {
  if (!request.nextUrl.pathname.includes('%')) return NextResponse.next();
  return undecodablePath(request.nextUrl.pathname) ?? NextResponse.next();
}

/**
 * Only paths with a percent sign reach the proxy: with a proxy in the way Next.js copies every request body so that
 * both could read it (issue 19: 2–3 % of the web process's CPU per POST).
 */
export const config = { matcher: '/(.*%.*)' };
