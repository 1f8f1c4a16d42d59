import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import { AT_RISK_MS } from '@/server/calendar/offline-deadline';
import { metrics } from './metrics';

/**
 * Gauges read from the database at scrape time: documents by status, offline deadlines and the job queue by task.
 * The attention gauge (server/attention/attention-gauge.ts) is read next to it by the route, so that this plumbing
 * does not depend on a domain folder.
 */
export async function readDatabaseGauges(db: Db): Promise<void> {
  const m = metrics();
  const [docs, offline, jobs] = await Promise.all([
    db.execute<{ mode: string; status: string; n: number }>(sql`select mode, status, count(*)::int as n from documents group by mode, status`),
    // offline24 (issue 17): what still has to reach KSeF, and how close its deadline is (at risk: 6 hours or less)
    db.execute<{ mode: string; state: string; n: number }>(sql`
      select mode, case when offline_deadline_missed or offline_deadline < now() then 'missed'
        when offline_deadline <= now() + make_interval(secs => ${AT_RISK_MS / 1000}) then 'at_risk' else 'on_time' end as state,
        count(*)::int as n
      from documents where offline_mode and ksef_number is null and status not in ('skipped', 'error') group by 1, 2`),
    db.execute<{ task: string; state: string; n: number }>(sql`
      select task_identifier as task, case when locked_at is not null then 'running' when run_at > now() then 'scheduled' else 'ready' end as state,
        count(*)::int as n
      from graphile_worker.jobs group by 1, 2`),
  ]);
  m.documentsByStatus.reset();
  for (const r of docs) m.documentsByStatus.set({ mode: r.mode, status: r.status }, r.n);
  m.offlineDocuments.reset();
  for (const r of offline) m.offlineDocuments.set({ mode: r.mode, state: r.state }, r.n);
  m.queueDepth.reset();
  for (const r of jobs) m.queueDepth.set({ task: r.task, state: r.state }, r.n);
}

/**
 * GET /metrics: Prometheus text, only with `Authorization: Bearer <METRICS_TOKEN>`; with no token configured the
 * endpoint does not exist (404), so metrics are never public by accident.
 */
export async function metricsResponse(
  authorization: string | null,
  gauges?: () => Promise<void>,
): Promise<{ status: number; body: string; contentType: string }> {
  const token = config().METRICS_TOKEN;
  if (!token) return { status: 404, body: 'metrics are off: set METRICS_TOKEN\n', contentType: 'text/plain' };
  if (!sameSecret(authorization ?? '', `Bearer ${token}`))
    return { status: 401, body: 'metrics need Authorization: Bearer <METRICS_TOKEN>\n', contentType: 'text/plain' };
  if (gauges) await gauges();
  const { registry } = metrics();
  return { status: 200, body: await registry.metrics(), contentType: registry.contentType };
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
