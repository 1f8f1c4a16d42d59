import { createHash } from 'node:crypto';
import { db as sharedDb, type Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { ERRORS } from '@/server/facts/error-codes';
import { decodeUtf8, readBodyBytes } from '@/server/http/body';
import { findUnsafeText } from '@/server/http/safe-text';
import { JOBS } from '@/server/jobs/registry';
import { reportFailure } from '@/server/observability/failures';
import { log } from '@/server/observability/log';
import { unsealWebhookSecret } from '@/server/webhooks/webhook-secret';
import type { StorePlatform } from './platform';

const STORE_ID = /^st_[0-9A-Za-z]{1,64}$/;

const SECRET = `
select w.secret, s.account_id, s.mode from store_webhooks w join store_connections s on s.id = w.store_id
where s.id = $1 and w.remote_id = $2 and s.platform = $3 and s.status <> 'disconnected'`;

/** The delivery and its job in one statement; a delivery seen before (same hash) adds nothing. */
const STORE = `
with ins as (
  insert into store_deliveries (store_id, hash, topic, remote_webhook_id, body) values ($1, $2, $3, $4, $5::jsonb)
  on conflict do nothing
  returning id
)
-- job key as JOBS.store_delivery.key builds it
select graphile_worker.add_job('store_delivery', json_build_object('deliveryId', id), job_key := 'store_delivery:' || id, max_attempts := $6::int) from ins`;

/**
 * Unsealed webhook secrets for a short while, so a burst of deliveries costs one statement each. A disconnected
 * store's cached secret still verifies for at most this long; its deliveries are then dropped by the job.
 */
const SECRET_TTL_MS = 30_000;
type StoreWebhook = { secret: string; accountId: string; mode: 'test' | 'live' };
const secrets = new Map<string, StoreWebhook & { until: number }>();

async function storeWebhook(db: Db, platform: StorePlatform, storeId: string, webhookId: number): Promise<StoreWebhook | null> {
  const key = `${platform.id}:${storeId}:${webhookId}`;
  const cached = secrets.get(key);
  if (cached && cached.until > Date.now()) return cached;
  const [row] = await db.$client.unsafe<{ secret: string; account_id: string; mode: 'test' | 'live' }[]>(SECRET, [storeId, webhookId, platform.id], {
    prepare: true,
  });
  if (!row) return null;
  if (secrets.size > 10_000) secrets.clear();
  const webhook = { secret: unsealWebhookSecret(row.secret), accountId: row.account_id, mode: row.mode };
  secrets.set(key, { ...webhook, until: Date.now() + SECRET_TTL_MS });
  return webhook;
}

/** A delivery we do not take: logged and counted (the platform retries it, and reconciliation picks the order up). */
function refuse(
  requestId: string,
  status: number,
  error: { code: string; message: string },
  ids: { storeId: string; webhookId?: number; topic?: string | null; webhook?: StoreWebhook | null },
): Response {
  const { webhook, topic, storeId, webhookId } = ids;
  // nothing is verified yet: the store id is logged only in its own shape, the topic cut short
  const known = {
    storeId: STORE_ID.test(storeId) ? storeId : 'invalid',
    webhookId,
    topic: topic?.slice(0, 64),
    accountId: webhook?.accountId,
    mode: webhook?.mode,
  };
  reportFailure('store_delivery_refused', { ...known, requestId, status, reason: error.code });
  return answer(requestId, status, error);
}

/** The hook's answers: an empty 200, or `{error, message}` with the code's status; each with the request's id. */
const answer = (requestId: string, status: number, error?: { code: string; message: string }) =>
  new Response(error === undefined ? null : JSON.stringify({ error: error.code, message: error.message }), {
    status,
    headers: { 'Request-Id': requestId, 'Cache-Control': 'no-store', ...(error !== undefined && { 'Content-Type': 'application/json' }) },
  });

/** Any method but POST: 405 in the hook's shape. */
export const wrongHookMethod = (platform: StorePlatform, requestId: string): Response => {
  const res = answer(requestId, 405, { code: 'method_not_allowed', message: `${platform.name} delivers webhooks with POST.` });
  res.headers.set('Allow', 'POST');
  return res;
};

const refusal = (err: AppError) => ({ code: err.code, message: err.message });

/**
 * POST /hooks/{platform}/{store_id}: a delivery of one of our webhooks in the store (WooCommerce:
 * woocommerce-rules.md §1). The platform's save-time ping gets 200; anything else needs the webhook's id and a
 * signature of the raw body with that webhook's secret (the adapter checks it), or gets 401 with nothing stored. A
 * verified delivery is stored (deduplicated by a hash of topic, webhook id and body, since WooCommerce's
 * X-WC-Webhook-Delivery-ID repeats within a second) with its job, and answered 200 at once: WooCommerce counts
 * anything but 2xx–302 as a failure and disables the webhook after repeated ones.
 * A signed body that cannot be stored (not UTF-8, not a JSON object, a NUL or an unpaired surrogate that jsonb
 * refuses) gets 400 and is not stored: sending it again cannot succeed, so a 5xx would only say "our fault, retry";
 * reconciliation reads the order through the REST API instead. Every answer carries Request-Id; a failure of ours
 * is a 500 `internal_error` with it.
 */
export async function receiveStoreDelivery(platform: StorePlatform, req: Request, storeId: string, requestId: string, db: Db = sharedDb()): Promise<Response> {
  try {
    return await receive(platform, req, storeId, requestId, db);
  } catch (err) {
    log.error({ err }, 'internal_error');
    return answer(requestId, 500, { code: 'internal_error', message: ERRORS.internal_error.message });
  }
}

async function receive(platform: StorePlatform, req: Request, storeId: string, requestId: string, db: Db): Promise<Response> {
  let raw: Buffer;
  try {
    raw = await readBodyBytes(req);
  } catch (err) {
    if (err instanceof AppError) return refuse(requestId, ERRORS[err.code].status ?? 400, refusal(err), { storeId });
    throw err;
  }
  const envelope = platform.envelope(req.headers, raw);
  if ('ping' in envelope) return answer(requestId, 200);
  const signatureInvalid = { code: 'signature_invalid', message: platform.signatureInvalid };
  if ('unsigned' in envelope || !STORE_ID.test(storeId)) return refuse(requestId, 401, signatureInvalid, { storeId, topic: envelope.topic });
  const { webhookId, topic, signature } = envelope;
  const webhook = await storeWebhook(db, platform, storeId, webhookId);
  if (!webhook || !platform.signatureMatches(webhook.secret, raw, signature))
    return refuse(requestId, 401, signatureInvalid, { storeId, webhookId, topic, webhook });
  // verified, but carries no order (another resource, a deleted order's bare {id}): nothing to do, still a success
  if (!platform.carriesOrder(topic)) return answer(requestId, 200);
  let text: string;
  let body: unknown;
  try {
    text = decodeUtf8(raw);
    body = JSON.parse(text);
  } catch (err) {
    const error = err instanceof AppError ? refusal(err) : { code: 'body_invalid_json', message: ERRORS.body_invalid_json.message };
    return refuse(requestId, 400, error, { storeId, webhookId, topic, webhook });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return refuse(requestId, 400, { code: 'body_invalid_json', message: 'The body is not a JSON object.' }, { storeId, webhookId, topic, webhook });
  const unsafe = findUnsafeText(body);
  if (unsafe !== undefined) {
    const message = `The body holds a NUL character or an unpaired surrogate at ${unsafe}, which cannot be stored.`;
    return refuse(requestId, 400, { code: 'body_invalid_json', message }, { storeId, webhookId, topic, webhook });
  }
  const hash = createHash('sha256').update(`${topic}\n${webhookId}\n`).update(raw).digest('hex');
  await db.$client.unsafe(STORE, [storeId, hash, topic, webhookId, text, JOBS.store_delivery.maxAttempts ?? 25], { prepare: true });
  return answer(requestId, 200);
}
