import { sql } from 'drizzle-orm';
import { hashApiKey } from '../auth/api-keys';
import type { Db } from '../db/client';
import type { Scope } from '../db/scope';
import type { Mode } from '../db/schema';
import { AppError } from '../errors';

export type ApiKeyContext = { keyId: string; scope: Scope };

const KEY_SHAPE = /^sk_(test|live)_[0-9A-Za-z]{16,64}$/;

/**
 * Resolves `Authorization: Bearer sk_…` to the key's scope in one query, and marks the key used at most once a
 * minute so that a busy key does not write on every request.
 */
export async function authenticate(db: Db, req: Request): Promise<ApiKeyContext> {
  const header = req.headers.get('authorization');
  if (!header || !header.trim()) throw new AppError('api_key_missing');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const key = match?.[1];
  if (!key || !KEY_SHAPE.test(key)) throw new AppError('api_key_invalid');
  const rows = await db.execute<{ id: string; account_id: string; mode: Mode; live_enabled: boolean }>(sql`
    with hit as (
      select k.id, k.account_id, k.mode, a.live_enabled, k.last_used_at
      from api_keys k join accounts a on a.id = k.account_id
      where k.hash = ${hashApiKey(key)} and k.revoked_at is null and a.disabled_at is null
    ), touch as (
      update api_keys set last_used_at = now()
      where id = (select id from hit) and (last_used_at is null or last_used_at < now() - interval '1 minute')
    )
    select id, account_id, mode, live_enabled from hit`);
  const row = rows[0];
  if (!row) throw new AppError('api_key_invalid');
  if (row.mode === 'live' && !row.live_enabled) throw new AppError('live_mode_disabled');
  return { keyId: row.id, scope: { accountId: row.account_id, mode: row.mode } };
}
