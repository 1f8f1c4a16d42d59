import { db } from '@/server/db/client';
import { checkReadiness } from '@/server/observability/health';

export const dynamic = 'force-dynamic';

/** Readiness: the database answers and holds this build's migrations; 503 otherwise. */
export async function GET() {
  const r = await checkReadiness(db());
  return Response.json(r, { status: r.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
