import 'server-only';
import { downloadPdf, downloadUpo, downloadXml } from '@/server/api/document-files';
import { downloadScope, readDashboardSession, type DashboardSession } from '@/server/auth/dashboard-session';
import { db as sharedDb, type Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { ERRORS } from '@/server/facts/error-codes';

const KINDS = { pdf: downloadPdf, xml: downloadXml, upo: downloadUpo } as const;

/**
 * GET /dashboard/files/{id}/{pdf|xml|upo}: the /v1 download endpoints behind the dashboard session instead of an
 * API key, in the mode of the switch. `?inline=1` lets the detail page preview the PDF in a frame.
 */
export async function downloadDocumentFile(req: Request, id: string, kind: string): Promise<Response> {
  return serveDocumentFile(sharedDb(), await readDashboardSession(req.headers.get('cookie')), id, kind, new URL(req.url).searchParams.get('inline') === '1');
}

/** The answer for a session's user and mode: the membership's scope, and a role that may read documents. */
export async function serveDocumentFile(db: Db, session: DashboardSession, id: string, kind: string, inline = false): Promise<Response> {
  const access = await downloadScope(db, session);
  if (!access.ok) return access.refusal;
  const endpoint = KINDS[kind as keyof typeof KINDS];
  if (!endpoint) return new Response('not found', { status: 404 });
  try {
    const out = await endpoint.handle({ db, scope: access.scope, input: { id }, requestId: 'dashboard' });
    if (!('raw' in out)) return new Response('unexpected answer', { status: 500 });
    const headers: Record<string, string> = {
      'Content-Type': out.contentType,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      ...out.headers,
    };
    if (inline) headers['Content-Disposition'] = (headers['Content-Disposition'] ?? '').replace(/^attachment/, 'inline');
    return new Response(typeof out.raw === 'string' ? out.raw : new Uint8Array(out.raw), { status: out.status, headers });
  } catch (err) {
    if (err instanceof AppError) return new Response(err.message, { status: ERRORS[err.code].status ?? 400 });
    throw err;
  }
}
