import { getServerSession } from 'next-auth';
import { downloadPdf, downloadUpo, downloadXml } from '../api/document-files';
import { authOptions } from '../auth/next-auth';
import { db } from '../db/client';
import { AppError, ERRORS } from '../errors';
import { readMode } from '../trpc/mode-cookie';
import { findMembership } from './find-membership';

const KINDS = { pdf: downloadPdf, xml: downloadXml, upo: downloadUpo } as const;

/**
 * GET /dashboard/files/{id}/{pdf|xml|upo}: the /v1 download endpoints behind the dashboard session instead of an
 * API key, in the mode of the switch. `?inline=1` lets the detail page preview the PDF in a frame.
 */
export async function downloadDocumentFile(req: Request, id: string, kind: string): Promise<Response> {
  const session = (await getServerSession(authOptions())) as { userId?: string } | null;
  const membership = session?.userId ? await findMembership(db(), session.userId) : null;
  if (!membership) return new Response('sign in first', { status: 401 });
  const mode = readMode(req.headers.get('cookie'));
  if (mode === 'live' && !membership.liveEnabled) return new Response('live mode is not enabled', { status: 403 });
  const endpoint = KINDS[kind as keyof typeof KINDS];
  if (!endpoint) return new Response('not found', { status: 404 });
  try {
    const out = await endpoint.handle({ db: db(), scope: { accountId: membership.accountId, mode }, input: { id }, requestId: 'dashboard' });
    if (!('raw' in out)) return new Response('unexpected answer', { status: 500 });
    const headers: Record<string, string> = { 'Content-Type': out.contentType, 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff', ...out.headers };
    if (new URL(req.url).searchParams.get('inline') === '1') headers['Content-Disposition'] = (headers['Content-Disposition'] ?? '').replace(/^attachment/, 'inline');
    return new Response(typeof out.raw === 'string' ? out.raw : new Uint8Array(out.raw), { status: out.status, headers });
  } catch (err) {
    if (err instanceof AppError) return new Response(err.message, { status: ERRORS[err.code].status ?? 400 });
    throw err;
  }
}
