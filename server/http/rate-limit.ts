import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/errors';

export const REQUESTS_PER_MINUTE = 100;
/** Spec section 8: the limit counts the requests of the last minute. */
export const WINDOW_US = 60_000_000;

export type Quota = { limit: number; remaining: number; resetSeconds: number };

/**
 * Spec section 8, "100 per minute", as a sliding log: each key's row in `api_rate_limits` keeps the times of its
 * admitted requests of the last minute, oldest first. A request is admitted while fewer than `limit` of them lie
 * within the minute before it, so no 60 seconds ever hold more than `limit` admitted requests; a refused request
 * stores nothing. As the log is sorted, the test is one look-up: the entry `limit − 1` places from the end has left
 * the window. Times are whole microseconds, as PostgreSQL keeps them.
 */
export type SlidingLogStep = { allowed: boolean; logUs: number[]; used: number; freesInUs: number };

/**
 * One request at `nowUs` against the stored log (oldest first): the arithmetic the statement in authenticate.ts does,
 * in plain numbers. `used` counts the log's requests in the window after the request; `freesInUs` is how long until
 * the entry whose leaving lets one more request in leaves the window: the oldest when admitted, else the one
 * `limit` places from the end.
 */
export function slidingLogStep(logUs: readonly number[], nowUs: number, limit: number): SlidingLogStep {
  const gate = logUs[logUs.length - limit];
  if (gate !== undefined && gate > nowUs - WINDOW_US) return { allowed: false, logUs: [...logUs], used: limit, freesInUs: gate + WINDOW_US - nowUs };
  const log = [...logUs.filter((t) => t > nowUs - WINDOW_US), nowUs].sort((a, b) => a - b);
  return { allowed: true, logUs: log, used: log.length, freesInUs: log[0]! + WINDOW_US - nowUs };
}

/**
 * The headers' quota after a request: Remaining is how many more requests fit right now (0 after the limit-th),
 * Reset the seconds until the oldest admitted request leaves the window. A refused request throws 429 rate_limited
 * with Retry-After, the seconds until one request fits again.
 */
export function checkQuota(allowed: boolean, used: number, freesInUs: number, limit = REQUESTS_PER_MINUTE): Quota {
  const resetSeconds = Math.max(1, Math.ceil(freesInUs / 1_000_000));
  const quota = { limit, remaining: allowed ? Math.max(0, limit - used) : 0, resetSeconds };
  if (!allowed) throw new AppError('rate_limited', undefined, undefined, { headers: { ...quotaHeaders(quota), 'Retry-After': String(resetSeconds) } });
  return quota;
}

export const quotaHeaders = (q: Quota): Record<string, string> => ({
  'RateLimit-Limit': String(q.limit),
  'RateLimit-Remaining': String(q.remaining),
  'RateLimit-Reset': String(q.resetSeconds),
});

/** A log whose newest entry has left the window is a full quota, the same as no row; the maintenance cron drops it. */
export async function purgeRateLimits(db: Db): Promise<number> {
  const rows = await db.execute(
    sql`delete from api_rate_limits where admitted[cardinality(admitted)] <= now() - ${WINDOW_US}::int * interval '1 microsecond' returning bucket`,
  );
  return rows.length;
}

/**
 * Headers of an answer that counted toward no key (no key, or a refused one): spec 8 wants the headers on every
 * response, and such a request used none of any key's limit.
 */
export const uncountedQuotaHeaders = (): Record<string, string> =>
  quotaHeaders({ limit: REQUESTS_PER_MINUTE, remaining: REQUESTS_PER_MINUTE, resetSeconds: 0 });
