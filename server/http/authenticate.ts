import { hashApiKey } from '../auth/api-keys';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import type { Mode } from '../db/schema';
import { AppError } from '../errors';
import { checkQuota, REQUESTS_PER_MINUTE, type Quota } from './rate-limit';

export type ApiKeyContext = { keyId: string; scope: Scope; quota: Quota };

const KEY_SHAPE = /^sk_(test|live)_[0-9A-Za-z]{16,64}$/;

/**
 * Resolves `Authorization: Bearer sk_…` to the key's scope and counts the request in the key's rate-limit window,
 * in one statement: it is the only database round trip every /v1 request pays before its handler. The key is
 * marked used at most once a minute so that a busy key does not write its row on every request. A refused key
 * (unknown, revoked, disabled account, live mode not enabled) is not counted.
 *
 * The statement commits without waiting for the WAL flush (synchronous_commit off for its own transaction only):
 * a flush costs milliseconds on every request, and all a database crash can lose is the last fraction of a
 * second of counts and last-used times, which a rate limiter can afford. It goes to the driver directly, as a
 * prepared statement: drizzle's `execute` would have PostgreSQL parse and plan it on every request.
 */
export async function authenticate(db: Db, req: Request, limit = REQUESTS_PER_MINUTE): Promise<ApiKeyContext> {
  const header = req.headers.get('authorization');
  if (!header || !header.trim()) throw new AppError('api_key_missing');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (!key || !KEY_SHAPE.test(key)) throw new AppError('api_key_invalid');
  const rows = await db.$client<{ id: string; account_id: string; mode: Mode; live_enabled: boolean; count: number | null; reset: number | null }[]>`
    with relaxed as (
      select set_config('synchronous_commit', 'off', true)
    ), hit as (
      select k.id, k.account_id, k.mode, a.live_enabled
      from api_keys k join accounts a on a.id = k.account_id
      where k.hash = ${hashApiKey(key)} and k.revoked_at is null and a.disabled_at is null
    ), touch as (
      update api_keys set last_used_at = now()
      where id = (select id from hit) and (last_used_at is null or last_used_at < now() - interval '1 minute')
    ), counted as (
      insert into rate_limit_windows as w (bucket, window_start, count)
      select id, date_trunc('minute', now()), 1 from hit where mode = 'test' or live_enabled
      on conflict (bucket, window_start) do update set count = w.count + 1
      returning count, ceil(extract(epoch from (window_start + interval '1 minute' - now())))::int as reset
    )
    select hit.id, hit.account_id, hit.mode, hit.live_enabled, counted.count, counted.reset from relaxed, hit left join counted on true`;
  const row = rows[0];
  if (!row) throw new AppError('api_key_invalid');
  if (row.mode === 'live' && !row.live_enabled) throw new AppError('live_mode_disabled');
  if (row.count === null || row.reset === null) throw new Error(`key ${row.id} passed but its request was not counted`);
  const quota = checkQuota(row.count, row.reset, limit);
  return { keyId: row.id, scope: { accountId: row.account_id, mode: row.mode }, quota };
}
