import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { AppError } from '@/server/errors';

export const REQUESTS_PER_MINUTE = 100;

export type Quota = { limit: number; remaining: number; resetSeconds: number };

/**
 * Spec section 8, "100 per minute", as a GCRA (generic cell rate algorithm): each key has a theoretical arrival
 * time `tat` in `api_rate_limits`; every accepted request moves it one emission interval (60 s / limit = 0.6 s) on
 * from max(tat, now), and a request is accepted while tat stays at most one minute ahead of now. So a key may
 * send `limit` requests at once, then one per interval as they refill: unlike fixed windows, no second burst fits
 * right after a window edge, and 200 requests take at least a minute at every instant. Refused requests do not move
 * tat. Times are whole microseconds, as PostgreSQL keeps them.
 */
export function gcraParams(limit: number): { emissionUs: number; burstUs: number } {
  const emissionUs = Math.round(60_000_000 / limit);
  return { emissionUs, burstUs: (limit - 1) * emissionUs };
}

export type GcraStep = { allowed: boolean; tatUs: number | null; aheadUs: number };

/**
 * One request at `nowUs` against the stored `tatUs` (null: none stored, a full quota): the arithmetic the
 * statement in authenticate.ts does, in plain numbers. `aheadUs` is tat − now after the request.
 */
export function gcraStep(tatUs: number | null, nowUs: number, limit: number): GcraStep {
  const { emissionUs, burstUs } = gcraParams(limit);
  if (tatUs !== null && tatUs - nowUs > burstUs) return { allowed: false, tatUs, aheadUs: tatUs - nowUs };
  const next = Math.max(tatUs ?? nowUs, nowUs) + emissionUs;
  return { allowed: true, tatUs: next, aheadUs: next - nowUs };
}

/**
 * The headers' quota after a request whose tat is now `aheadUs` ahead: Remaining is how many more requests would be
 * accepted right now, Reset the seconds until the whole quota is back. A refused request throws 429 rate_limited
 * with Retry-After, the seconds until one request fits again.
 */
export function checkQuota(allowed: boolean, aheadUs: number, limit = REQUESTS_PER_MINUTE): Quota {
  const { emissionUs, burstUs } = gcraParams(limit);
  const ahead = Math.max(0, aheadUs);
  const quota = {
    limit,
    remaining: allowed ? Math.max(0, Math.floor((burstUs + emissionUs - ahead) / emissionUs)) : 0,
    resetSeconds: Math.max(1, Math.ceil(ahead / 1_000_000)),
  };
  if (!allowed) {
    const retryAfter = Math.max(1, Math.ceil((ahead - burstUs) / 1_000_000));
    throw new AppError('rate_limited', undefined, undefined, { headers: { ...quotaHeaders(quota), 'Retry-After': String(retryAfter) } });
  }
  return quota;
}

export const quotaHeaders = (q: Quota): Record<string, string> => ({
  'RateLimit-Limit': String(q.limit),
  'RateLimit-Remaining': String(q.remaining),
  'RateLimit-Reset': String(q.resetSeconds),
});

/** A tat in the past is a full quota, the same as no row; the worker's maintenance cron drops such rows. */
export async function purgeRateLimits(db: Db): Promise<number> {
  const rows = await db.execute(sql`delete from api_rate_limits where tat < now() returning bucket`);
  return rows.length;
}

/**
 * Headers of an answer that counted toward no key (no key, or a refused one): spec 8 wants the headers on every
 * response, and such a request used none of any key's limit.
 */
export const uncountedQuotaHeaders = (): Record<string, string> =>
  quotaHeaders({ limit: REQUESTS_PER_MINUTE, remaining: REQUESTS_PER_MINUTE, resetSeconds: 0 });
