import { NextResponse, type NextRequest } from 'next/server';
import { undecodablePath } from '@/server/http/undecodable-path';

/** Runs before routing: only a path Next.js could not decode is answered here (see undecodablePath). */
export function proxy(request: NextRequest): Response {
  if (!request.nextUrl.pathname.includes('%')) return NextResponse.next();
  return undecodablePath(request.nextUrl.pathname) ?? NextResponse.next();
}
