import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { AppError } from '../errors';

export const REQUESTS_PER_MINUTE = 100;

export type Quota = { limit: number; remaining: number; resetSeconds: number };

/**
 * Counts the request in the key's current one-minute window (spec section 8). The window lives in PostgreSQL,
 * so every web process shares it; one upsert per request.
 */
export async function consumeRateLimit(db: Db, bucket: string, limit = REQUESTS_PER_MINUTE): Promise<Quota> {
  const rows = await db.execute<{ count: number; reset: number }>(sql`
    insert into rate_limit_windows as w (bucket, window_start, count)
    values (${bucket}, date_trunc('minute', now()), 1)
    on conflict (bucket, window_start) do update set count = w.count + 1
    returning count, ceil(extract(epoch from (window_start + interval '1 minute' - now())))::int as reset`);
  const row = rows[0]!;
  const quota = { limit, remaining: Math.max(0, limit - row.count), resetSeconds: Math.max(1, row.reset) };
  if (row.count > limit) {
    throw new AppError('rate_limited', undefined, undefined, {
      headers: { ...quotaHeaders(quota), 'Retry-After': String(quota.resetSeconds) },
    });
  }
  return quota;
}

export const quotaHeaders = (q: Quota): Record<string, string> => ({
  'RateLimit-Limit': String(q.limit),
  'RateLimit-Remaining': String(q.remaining),
  'RateLimit-Reset': String(q.resetSeconds),
});

/** Old windows are dead weight; the worker's cron calls this. */
export async function purgeRateLimitWindows(db: Db): Promise<void> {
  await db.execute(sql`delete from rate_limit_windows where window_start < now() - interval '5 minutes'`);
}
