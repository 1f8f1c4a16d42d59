import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { AppError } from '@/server/errors';
import { sealJson, unsealJson } from '@/server/security/sealed-json';
import { toErrorResponse } from './errors';

export type StoredResponse = { status: number; body: string };

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;
/** A request that holds a key this long without finishing is taken as crashed; a retry may run it again. */
const ABANDONED_AFTER_SECONDS = 60;
const WAIT_STEP_MS = 50;

// Prepared statements: every idempotent request runs two of them, so they are planned once per connection.
const CLAIM = `
  insert into idempotency_keys (account_id, mode, key, request_hash) values ($1, $2::mode, $3, $4)
  on conflict (account_id, mode, key) do update
    set request_hash = excluded.request_hash, created_at = now()
    where idempotency_keys.response_status is null and idempotency_keys.created_at < now() - make_interval(secs => $5::int)
       or idempotency_keys.created_at < now() - interval '24 hours'
  returning true as claimed`;
const READ = `select request_hash, response_status, response_body from idempotency_keys where account_id = $1 and mode = $2::mode and key = $3`;
const STORE = `update idempotency_keys set response_status = $4, response_body = $5 where account_id = $1 and mode = $2::mode and key = $3`;

export function checkIdempotencyKey(key: string): void {
  if (!KEY_SHAPE.test(key)) throw new AppError('idempotency_key_invalid', 'Idempotency-Key');
}

/**
 * Stripe's semantics (spec section 8): the first request with a key runs and its response is kept for 24 hours;
 * the same request again replays it (with `replayStatus` when given), another request under the key is refused,
 * and a concurrent duplicate waits for the first instead of running. 5xx answers are not kept, so a retry runs again.
 * Kept answers are sealed: a webhook endpoint's create answer carries its secret (invariant 6).
 */
export async function withIdempotency(
  db: Db,
  scope: Scope,
  key: string,
  fingerprint: string,
  run: () => Promise<StoredResponse>,
  replayStatus?: number,
): Promise<StoredResponse> {
  const requestHash = createHash('sha256').update(fingerprint).digest('hex');
  for (;;) {
    const claimed = await db.$client.unsafe(CLAIM, [scope.accountId, scope.mode, key, requestHash, ABANDONED_AFTER_SECONDS], { prepare: true });
    if (claimed.length > 0) return runAndStore(db, scope, key, run);

    const [row] = (await db.$client.unsafe(READ, [scope.accountId, scope.mode, key], { prepare: true })) as unknown as {
      request_hash: string;
      response_status: number | null;
      response_body: string | null;
    }[];
    if (!row) continue; // released by a failed first request between our two statements
    if (row.request_hash !== requestHash) throw new AppError('idempotency_key_reused', 'Idempotency-Key');
    if (row.response_status !== null && row.response_body !== null) {
      return { status: replayStatus ?? row.response_status, body: unsealJson<string>(row.response_body) };
    }
    await new Promise((r) => setTimeout(r, WAIT_STEP_MS));
  }
}

async function runAndStore(db: Db, scope: Scope, key: string, run: () => Promise<StoredResponse>): Promise<StoredResponse> {
  const release = () =>
    db.execute(sql`delete from idempotency_keys
      where account_id = ${scope.accountId} and mode = ${scope.mode} and key = ${key} and response_status is null`);
  let out: StoredResponse;
  try {
    out = await run();
  } catch (err) {
    if (!(err instanceof AppError) || err.code === 'internal_error') {
      await release();
      throw err;
    }
    const r = toErrorResponse(err);
    out = { status: r.status, body: JSON.stringify(r.body) };
  }
  if (out.status >= 500) {
    await release();
    return out;
  }
  await db.$client.unsafe(STORE, [scope.accountId, scope.mode, key, out.status, sealJson(out.body)], { prepare: true });
  return out;
}

/** Keys older than 24 hours are forgotten; the worker's cron calls this. */
export async function purgeIdempotencyKeys(db: Db): Promise<number> {
  const rows = await db.execute(sql`delete from idempotency_keys where created_at < now() - interval '24 hours' returning 1`);
  return rows.length;
}
