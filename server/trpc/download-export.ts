import 'server-only';
import { monthlyArchive, salesRegister } from '@/server/api/exports';
import { downloadScope, readDashboardSession } from '@/server/auth/dashboard-session';
import { db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { ERRORS } from '@/server/facts/error-codes';

const KINDS = { 'sales-register': salesRegister, archive: monthlyArchive } as const;

/**
 * GET /dashboard/exports/{sales-register|archive}?period=…: the /v1 export endpoints behind the dashboard session
 * instead of an API key, in the mode of the switch, with the same query parameters and the same streamed answer.
 */
export async function downloadExport(req: Request, kind: string): Promise<Response> {
  const access = await downloadScope(db(), await readDashboardSession(req.headers.get('cookie')));
  if (!access.ok) return access.refusal;
  const endpoint = KINDS[kind as keyof typeof KINDS];
  if (!endpoint) return new Response('not found', { status: 404 });
  try {
    const url = new URL(req.url);
    const input = endpoint.input!({ body: undefined, url, params: {} });
    const out = await endpoint.handle({ db: db(), scope: access.scope, input: input as never, requestId: 'dashboard' });
    if (!('stream' in out)) return new Response('unexpected answer', { status: 500 });
    return new Response(out.stream, {
      status: out.status,
      headers: { 'Content-Type': out.contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff', ...out.headers },
    });
  } catch (err) {
    if (err instanceof AppError) return new Response(err.message, { status: ERRORS[err.code].status ?? 400 });
    throw err;
  }
}
