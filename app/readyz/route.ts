import { db } from '@/server/db/client';
import { checkReadiness } from '@/server/observability/health';
import { methodNotAllowed } from '@/server/http/route';

export const dynamic = 'force-dynamic';

/** Readiness: the database answers and holds this build's migrations; 503 otherwise. */
export async function GET() {
  const r = await checkReadiness(db());
  return Response.json(r, { status: r.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}

const otherMethod = methodNotAllowed('GET');
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
