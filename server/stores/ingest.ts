import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { db as sharedDb, type Db } from '@/server/db/client';
import { AppError, ERRORS } from '@/server/errors';
import { decodeUtf8, readBodyBytes } from '@/server/http/body';
import { findUnsafeText } from '@/server/http/safe-text';
import { JOBS } from '@/server/jobs/registry';
import { log } from '@/server/observability/log';
import { unsealWebhookSecret } from '@/server/webhooks/webhook-secret';

const STORE_ID = /^st_[0-9A-Za-z]{1,64}$/;
const PING = /^webhook_id=\d+$/;

const SECRET = `
select w.secret from store_webhooks w join store_connections s on s.id = w.store_id
where s.id = $1 and w.remote_id = $2 and s.status <> 'disconnected'`;

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
const secrets = new Map<string, { secret: string; until: number }>();

async function webhookSecret(db: Db, storeId: string, webhookId: number): Promise<string | null> {
  const key = `${storeId}:${webhookId}`;
  const cached = secrets.get(key);
  if (cached && cached.until > Date.now()) return cached.secret;
  const [row] = await db.$client.unsafe<{ secret: string }[]>(SECRET, [storeId, webhookId], { prepare: true });
  if (!row) return null;
  if (secrets.size > 10_000) secrets.clear();
  const secret = unsealWebhookSecret(row.secret);
  secrets.set(key, { secret, until: Date.now() + SECRET_TTL_MS });
  return secret;
}

/** The hook's answers: an empty 200, or `{error, message}` with the code's status; each with the request's id. */
const answer = (requestId: string, status: number, error?: { code: string; message: string }) =>
  new Response(error === undefined ? null : JSON.stringify({ error: error.code, message: error.message }), {
    status,
    headers: { 'Request-Id': requestId, 'Cache-Control': 'no-store', ...(error !== undefined && { 'Content-Type': 'application/json' }) },
  });

/** Any method but POST: 405 in the hook's shape. */
export const wrongHookMethod = (requestId: string): Response => {
  const res = answer(requestId, 405, { code: 'method_not_allowed', message: 'WooCommerce delivers webhooks with POST.' });
  res.headers.set('Allow', 'POST');
  return res;
};

const SIGNATURE_INVALID = { code: 'signature_invalid', message: 'X-WC-Webhook-ID and X-WC-Webhook-Signature do not match a webhook of this store.' };
const refusal = (err: AppError) => ({ code: err.code, message: err.message });

function signatureMatches(secret: string, raw: Buffer, given: string): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('base64'));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * POST /hooks/woocommerce/{store_id}: a delivery of one of our webhooks in the store (woocommerce-rules.md §1).
 * The save-time ping (`webhook_id=N`, unsigned) gets 200; anything else needs X-WC-Webhook-ID and a base64
 * HMAC-SHA256 of the raw body with that webhook's secret, compared in constant time, or gets 401 with nothing
 * stored. A verified delivery is stored (deduplicated by a hash of topic, webhook id and body, since
 * X-WC-Webhook-Delivery-ID repeats within a second) with its job, and answered 200 at once: WooCommerce counts
 * anything but 2xx–302 as a failure and disables the webhook after repeated ones.
 * A signed body that cannot be stored (not UTF-8, not a JSON object, a NUL or an unpaired surrogate that jsonb
 * refuses) gets 400 and is not stored: sending it again cannot succeed, so a 5xx would only say "our fault, retry";
 * reconciliation reads the order through the REST API instead. Every answer carries Request-Id; a failure of ours
 * is a 500 `internal_error` with it.
 */
export async function receiveWooCommerceDelivery(req: Request, storeId: string, requestId: string, db: Db = sharedDb()): Promise<Response> {
  try {
    return await receive(req, storeId, requestId, db);
  } catch (err) {
    log.error({ err }, 'internal_error');
    return answer(requestId, 500, { code: 'internal_error', message: ERRORS.internal_error.message });
  }
}

async function receive(req: Request, storeId: string, requestId: string, db: Db): Promise<Response> {
  let raw: Buffer;
  try {
    raw = await readBodyBytes(req);
  } catch (err) {
    if (err instanceof AppError) return answer(requestId, ERRORS[err.code].status ?? 400, refusal(err));
    throw err;
  }
  const topic = req.headers.get('x-wc-webhook-topic');
  if (!topic && PING.test(raw.toString('utf8').trim())) return answer(requestId, 200);
  const webhookId = Number(req.headers.get('x-wc-webhook-id'));
  const signature = req.headers.get('x-wc-webhook-signature');
  if (!STORE_ID.test(storeId) || !topic || !signature || !Number.isSafeInteger(webhookId) || webhookId <= 0) return answer(requestId, 401, SIGNATURE_INVALID);
  const secret = await webhookSecret(db, storeId, webhookId);
  if (!secret || !signatureMatches(secret, raw, signature)) return answer(requestId, 401, SIGNATURE_INVALID);
  // verified, but not about orders (or a deleted order's bare {id}): nothing to do, and still a success for WooCommerce
  if (!topic.startsWith('order.') || topic === 'order.deleted') return answer(requestId, 200);
  let text: string;
  let body: unknown;
  try {
    text = decodeUtf8(raw);
    body = JSON.parse(text);
  } catch (err) {
    return answer(requestId, 400, err instanceof AppError ? refusal(err) : { code: 'body_invalid_json', message: ERRORS.body_invalid_json.message });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return answer(requestId, 400, { code: 'body_invalid_json', message: 'The body is not a JSON object.' });
  const unsafe = findUnsafeText(body);
  if (unsafe !== undefined)
    return answer(requestId, 400, {
      code: 'body_invalid_json',
      message: `The body holds a NUL character or an unpaired surrogate at ${unsafe}, which cannot be stored.`,
    });
  const hash = createHash('sha256').update(`${topic}\n${webhookId}\n`).update(raw).digest('hex');
  await db.$client.unsafe(STORE, [storeId, hash, topic, webhookId, text, JOBS.store_delivery.maxAttempts ?? 25], { prepare: true });
  return answer(requestId, 200);
}
