import { sql } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import type { KsefEnvironment } from '@/server/db/schema';
import { log, pathOnly } from '@/server/observability/log';
import { metrics, secondsSince } from '@/server/observability/metrics';
import { ksefEndpointGroup, ksefLimitsFor, type KsefGroup, type LimitValues } from './rate-limits';

/**
 * KSeF counts a request when it arrives and we count it just before sending; a later request may travel faster
 * than an earlier one, so every window is held a little longer than KSeF's.
 */
const SAFETY_MS = { second: 250, minute: 1_000, hour: 2_000 };
const WINDOWS = [
  ['perSecond', 1_000 + SAFETY_MS.second],
  ['perMinute', 60_000 + SAFETY_MS.minute],
  ['perHour', 3_600_000 + SAFETY_MS.hour],
] as const;

/** Whose limit a call uses: KSeF counts per (context, client IP); the public group counts per IP only. */
export type ThrottleKey = { environment: KsefEnvironment; context: string };

export const limiterOf = (key: ThrottleKey, group: KsefGroup, counter: string): string =>
  `${key.environment}|${group === 'public' ? '*' : key.context}|${counter}`;

export type Admission = { granted: true } | { granted: false; waitMs: number };

/** The windows' limits (null: none) and lengths, in the order drizzle/0005's functions take them. */
const windowArgs = (values: LimitValues) => {
  const max = (n: number) => (Number.isFinite(n) ? n : null);
  return sql.join([...WINDOWS.map(([field]) => sql`${max(values[field])}`), ...WINDOWS.map(([, spanMs]) => sql`${spanMs}`)], sql`, `);
};

/**
 * Takes one request slot of the limiter if every window (and any Retry-After block) allows it now, or says how
 * long to wait. One statement (ksef_admit_request, drizzle/0005): its advisory lock serialises the check and the
 * insert across all worker processes, and it costs one round trip instead of the six of a client transaction.
 */
export async function admitKsefRequest(db: Db, limiter: string, values: LimitValues): Promise<Admission> {
  const [row] = await db.execute<{ wait_ms: number | null }>(sql`select ksef_admit_request(${limiter}, ${windowArgs(values)}) as wait_ms`);
  const waitMs = row?.wait_ms ?? null;
  return waitMs !== null && waitMs > 0 ? { granted: false, waitMs } : { granted: true };
}

/**
 * How long until the limiter can take `slots` requests in a row, without taking any: what a document waits for
 * before work that needs them is started (a batch session needs two, its open and its close).
 */
export async function peekWaitMs(db: Db, limiter: string, values: LimitValues, slots = 1): Promise<number> {
  const [row] = await db.execute<{ wait_ms: number }>(sql`select ksef_throttle_wait_ms(${limiter}, ${slots}, ${windowArgs(values)}) as wait_ms`);
  return Math.max(0, row?.wait_ms ?? 0);
}

/** A 429 that still came: honour its Retry-After on this limiter and count it for the status page. */
export async function recordKsefRateLimited(db: Db, limiter: string, retryAfterSeconds: number): Promise<void> {
  await db.execute(sql`
    insert into ksef_throttle_blocks (limiter, blocked_until, rate_limited_count, last_rate_limited_at)
    values (${limiter}, clock_timestamp() + make_interval(secs => ${retryAfterSeconds}), 1, clock_timestamp())
    on conflict (limiter) do update set
      blocked_until = greatest(ksef_throttle_blocks.blocked_until, excluded.blocked_until),
      rate_limited_count = ksef_throttle_blocks.rate_limited_count + 1,
      last_rate_limited_at = excluded.last_rate_limited_at`);
}

export type WindowUsage = { second: number; minute: number; hour: number };

/**
 * Requests counted in each window of the limiters (for the status page and the send-mode choice). The hour's
 * bound uses now() (this statement's start, outside a transaction) so that the index on (limiter, at) scans only
 * the hour; clock_timestamp() would leave it a filter over the two hours ksef_admit_request keeps.
 */
export async function readWindowUsage(db: Db, limiters: string[]): Promise<Map<string, WindowUsage>> {
  const out = new Map<string, WindowUsage>(limiters.map((l) => [l, { second: 0, minute: 0, hour: 0 }]));
  if (limiters.length === 0) return out;
  const rows = await db.execute<{ limiter: string; second: number; minute: number; hour: number }>(sql`
    select limiter,
      count(*) filter (where at > clock_timestamp() - interval '1 second')::int as second,
      count(*) filter (where at > clock_timestamp() - interval '1 minute')::int as minute,
      count(*)::int as hour
    from ksef_request_log
    where limiter in ${limiters} and at > now() - interval '1 hour'
    group by limiter`);
  for (const r of rows) out.set(r.limiter, { second: r.second, minute: r.minute, hour: r.hour });
  return out;
}

/** Blocks still in force, by limiter. */
export async function readBlocks(db: Db, limiters: string[]): Promise<Map<string, { blockedUntil: Date; rateLimitedCount: number }>> {
  const out = new Map<string, { blockedUntil: Date; rateLimitedCount: number }>();
  if (limiters.length === 0) return out;
  const rows = await db.execute<{ limiter: string; blocked_until: string; rate_limited_count: number }>(sql`
    select limiter, blocked_until, rate_limited_count from ksef_throttle_blocks where limiter in ${limiters}`);
  for (const r of rows) out.set(r.limiter, { blockedUntil: new Date(r.blocked_until), rateLimitedCount: r.rate_limited_count });
  return out;
}

/** Longest a call waits in place for a slot; longer waits go back to the job queue as a 429 with Retry-After. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Header on the 429 answers made by the throttle itself, never sent by KSeF. */
export const THROTTLE_HEADER = 'x-ksef-relay-throttled';

/**
 * A fetch that passes every call under `baseUrl` through the throttle of `key` (pre-signed URLs outside it are
 * not limited by KSeF). A wait above KSEF_THROTTLE_INLINE_WAIT_MS answers 429 itself, which the transport turns into
 * KsefUnavailableError with that Retry-After; a 429 from KSeF blocks the limiter for its Retry-After.
 */
export function createThrottledFetch(db: Db, key: ThrottleKey, baseUrl: string, doFetch: typeof fetch = fetch): typeof fetch {
  const base = baseUrl.replace(/\/$/, '');
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${base}/`)) return doFetch(input, init);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const { group, counter } = ksefEndpointGroup(method, new URL(url).pathname.slice(new URL(base).pathname.length));
    const limiter = limiterOf(key, group, counter);
    const values = (await ksefLimitsFor(db, key.environment))[group];
    const m = metrics();
    const waitStarted = performance.now();
    for (;;) {
      const admission = await admitKsefRequest(db, limiter, values);
      if (admission.granted) break;
      if (admission.waitMs > config().KSEF_THROTTLE_INLINE_WAIT_MS) {
        m.ksefThrottleDeferred.inc({ group });
        return new Response(JSON.stringify({ status: { code: 429, description: 'Throttled by KSeF Relay', details: [limiter] } }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': String(Math.ceil(admission.waitMs / 1000)), [THROTTLE_HEADER]: '1' },
        });
      }
      await sleep(admission.waitMs);
    }
    m.ksefThrottleWait.observe({ group }, secondsSince(waitStarted));
    const started = performance.now();
    let res: Response;
    try {
      res = await doFetch(input, init);
    } catch (err) {
      m.ksefRequests.observe({ group, outcome: 'network' }, secondsSince(started));
      throw err;
    }
    const outcome = res.status === 429 ? '429' : `${Math.floor(res.status / 100)}xx`;
    m.ksefRequests.observe({ group, outcome }, secondsSince(started));
    if (res.status === 429) {
      const retryAfter = Math.max(1, Number(res.headers.get('retry-after')) || 1);
      await recordKsefRateLimited(db, limiter, retryAfter);
      m.ksefRateLimited.inc({ group });
      log.warn({ limiter, retryAfterSeconds: retryAfter, method, path: pathOnly(url) }, 'ksef_rate_limited');
    }
    return res;
  };
}
