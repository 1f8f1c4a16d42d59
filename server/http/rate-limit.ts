import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { AppError } from '../errors';

export const REQUESTS_PER_MINUTE = 100;

export type Quota = { limit: number; remaining: number; resetSeconds: number };

/**
 * Spec section 8: fixed one-minute windows per key in `rate_limit_windows`, shared by every web process. The
 * count itself is taken by authenticate's statement (one round trip per request); this turns the window's count
 * after this request into the quota, or the 429 when it is over the limit.
 */
export function checkQuota(count: number, resetSeconds: number, limit = REQUESTS_PER_MINUTE): Quota {
  const quota = { limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, resetSeconds) };
  if (count > limit) {
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
