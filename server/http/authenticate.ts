import 'server-only';
import { hashApiKey } from '@/server/api-keys/api-keys';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { Mode } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { checkQuota, REQUESTS_PER_MINUTE, WINDOW_US, type Quota } from './rate-limit';

export type ApiKeyContext = { keyId: string; scope: Scope; quota: Quota };

const KEY_SHAPE = /^sk_(test|live)_[0-9A-Za-z]{16,64}$/;

/**
 * Resolves `Authorization: Bearer sk_…` to the key's scope and takes the request from the key's rate limit (a sliding
 * log, server/http/rate-limit.ts), in one statement: it is the only database round trip every /v1 request pays before
 * its handler. The key is marked used at most once a minute so that a busy key does not write its row on every
 * request. A refused key (unknown, revoked, disabled account, live mode not enabled) is not counted.
 *
 * The limiter's upsert decides under the row's lock: it appends to the log only when the request fits (ON CONFLICT
 * … WHERE), so concurrent requests of one key on any web process never both take the last slot. `now` is the
 * database's clock unless a test passes one.
 *
 * The statement commits without waiting for the WAL flush (synchronous_commit off for its own transaction only):
 * a flush costs milliseconds on every request, and all a database crash can lose is the last fraction of a
 * second of counts and last-used times, which a rate limiter can afford. It goes to the driver directly, as a
 * prepared statement: drizzle's `execute` would have PostgreSQL parse and plan it on every request.
 */
export async function authenticate(db: Db, req: Request, options: { limit?: number; now?: Date } = {}): Promise<ApiKeyContext> {
  const limit = options.limit ?? REQUESTS_PER_MINUTE;
  const header = req.headers.get('authorization');
  if (!header || !header.trim()) throw new AppError('api_key_missing');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (!key || !KEY_SHAPE.test(key)) throw new AppError('api_key_invalid');
  const rows = await db.$client<
    { id: string; account_id: string; mode: Mode; live_enabled: boolean; allowed: boolean | null; used: number | null; frees_in_us: number | null }[]
  >`
    with relaxed as (
      select set_config('synchronous_commit', 'off', true)
    ), clock as (
      select coalesce(${options.now?.toISOString() ?? null}::timestamptz, now()) as now
    ), hit as (
      select k.id, k.account_id, k.mode, a.live_enabled
      from api_keys k join accounts a on a.id = k.account_id
      where k.hash = ${hashApiKey(key)} and k.revoked_at is null and a.disabled_at is null
    ), touch as (
      update api_keys set last_used_at = now()
      where id = (select id from hit) and (last_used_at is null or last_used_at < now() - interval '1 minute')
    ), counted as (
      -- excluded.admitted is {now}; the log is sorted, so its entry limit − 1 places from the end decides
      insert into api_rate_limits as r (bucket, admitted)
      select hit.id, array[clock.now] from hit, clock where hit.mode = 'test' or hit.live_enabled
      on conflict (bucket) do update set admitted = array(
        select t from unnest(r.admitted || excluded.admitted) t where t > excluded.admitted[1] - ${WINDOW_US}::int * interval '1 microsecond' order by t)
      where coalesce(r.admitted[cardinality(r.admitted) - ${limit - 1}::int] <= excluded.admitted[1] - ${WINDOW_US}::int * interval '1 microsecond', true)
      returning r.admitted
    )
    select hit.id, hit.account_id, hit.mode, hit.live_enabled,
      (hit.mode = 'test' or hit.live_enabled) and counted.admitted is not null as allowed,
      coalesce(cardinality(counted.admitted), ${limit}::int) as used,
      round(extract(epoch from coalesce(
        counted.admitted[1],
        (select l.admitted[cardinality(l.admitted) - ${limit - 1}::int] from api_rate_limits l where l.bucket = hit.id),
        clock.now - ${WINDOW_US}::int * interval '1 microsecond'
      ) + ${WINDOW_US}::int * interval '1 microsecond' - clock.now) * 1000000)::float8 as frees_in_us
    from relaxed, clock, hit left join counted on true`;
  const row = rows[0];
  if (!row) throw new AppError('api_key_invalid');
  if (row.mode === 'live' && !row.live_enabled) throw new AppError('live_mode_disabled');
  if (row.allowed === null || row.used === null || row.frees_in_us === null) throw new Error(`key ${row.id} passed but its request was not counted`);
  const quota = checkQuota(row.allowed, row.used, row.frees_in_us, limit);
  return { keyId: row.id, scope: { accountId: row.account_id, mode: row.mode }, quota };
}
