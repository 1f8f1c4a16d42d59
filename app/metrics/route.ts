import { db } from '@/server/db/client';
import { metricsResponse, readDatabaseGauges } from '@/server/observability/scrape';

export const dynamic = 'force-dynamic';

/** Prometheus metrics of this web process plus the database gauges (documents, job queue); needs METRICS_TOKEN. */
export async function GET(req: Request) {
  const r = await metricsResponse(req.headers.get('authorization'), () => readDatabaseGauges(db()));
  return new Response(r.body, { status: r.status, headers: { 'Content-Type': r.contentType, 'Cache-Control': 'no-store' } });
}
