import { readAttentionGauge } from '@/server/attention/attention-gauge';
import { db } from '@/server/db/client';
import { metricsResponse, readDatabaseGauges } from '@/server/observability/scrape';
import { methodNotAllowed } from '@/server/http/route';

export const dynamic = 'force-dynamic';

/** Prometheus metrics of this web process plus the database gauges (documents, job queue, attention); needs METRICS_TOKEN. */
export async function GET(req: Request) {
  const gauges = async () => {
    await Promise.all([readDatabaseGauges(db()), readAttentionGauge(db(), new Date())]);
  };
  const r = await metricsResponse(req.headers.get('authorization'), gauges);
  return new Response(r.body, { status: r.status, headers: { 'Content-Type': r.contentType, 'Cache-Control': 'no-store' } });
}

const otherMethod = methodNotAllowed('GET');
export { otherMethod as POST, otherMethod as PUT, otherMethod as PATCH, otherMethod as DELETE };
