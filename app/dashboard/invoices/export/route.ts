import { downloadScope, readDashboardSession } from '@/server/auth/dashboard-session';
import { db } from '@/server/db/client';
import { documentsCsv } from '@/server/documents/documents-csv';
import { listDocumentsForExport, ZExportDocuments } from '@/server/documents/list-documents-for-export';
import { dictionaryFor } from '@/app/i18n/locale';
import { requestLocale } from '@/app/i18n/request-locale';

/**
 * GET /dashboard/invoices/export?…: the invoice list's filters (the page's own search params) as a CSV file for
 * Polish Excel, behind the dashboard session, in the mode of the switch.
 */
export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  const cookie = req.headers.get('cookie');
  const access = await downloadScope(db(), await readDashboardSession(cookie));
  if (!access.ok) return access.refusal;
  const params = Object.fromEntries([...new URL(req.url).searchParams].filter(([, v]) => v !== ''));
  const parsed = ZExportDocuments.safeParse(params);
  if (!parsed.success) return new Response(`bad filter: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`, { status: 400 });
  const t = dictionaryFor(await requestLocale());
  const rows = await listDocumentsForExport(db(), access.scope, parsed.data);
  const csv = documentsCsv(rows, t.invoices.csv, { kind: (k) => t.kind[k as keyof typeof t.kind], status: (s) => t.status[s as keyof typeof t.status] });
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="documents-${access.scope.mode}.csv"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
}
