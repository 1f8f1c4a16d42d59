import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { db as sharedDb, type Db } from '@/server/db/client';
import { AppError } from '@/server/errors';
import { readBody } from '@/server/http/body';
import { JOBS } from '@/server/jobs/registry';
import { reportFailure } from '@/server/observability/failures';
import { unsealWebhookSecret } from '@/server/webhooks/webhook-secret';

const STORE_ID = /^st_[0-9A-Za-z]{1,64}$/;
const PING = /^webhook_id=\d+$/;

const SECRET = `
select w.secret, s.account_id, s.mode from store_webhooks w join store_connections s on s.id = w.store_id
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
type StoreWebhook = { secret: string; accountId: string; mode: 'test' | 'live' };
const secrets = new Map<string, StoreWebhook & { until: number }>();

async function storeWebhook(db: Db, storeId: string, webhookId: number): Promise<StoreWebhook | null> {
  const key = `${storeId}:${webhookId}`;
  const cached = secrets.get(key);
  if (cached && cached.until > Date.now()) return cached;
  const [row] = await db.$client.unsafe<{ secret: string; account_id: string; mode: 'test' | 'live' }[]>(SECRET, [storeId, webhookId], { prepare: true });
  if (!row) return null;
  if (secrets.size > 10_000) secrets.clear();
  const webhook = { secret: unsealWebhookSecret(row.secret), accountId: row.account_id, mode: row.mode };
  secrets.set(key, { ...webhook, until: Date.now() + SECRET_TTL_MS });
  return webhook;
}

/** A delivery we do not take: logged and counted (WooCommerce retries it, and reconciliation picks the order up). */
function refuse(status: number, error: string, ids: { storeId: string; webhookId?: number; topic?: string | null; webhook?: StoreWebhook | null }): Response {
  const { webhook, topic, storeId, webhookId } = ids;
  // nothing is verified yet: the store id is logged only in its own shape, the topic cut short
  const known = {
    storeId: STORE_ID.test(storeId) ? storeId : 'invalid',
    webhookId,
    topic: topic?.slice(0, 64),
    accountId: webhook?.accountId,
    mode: webhook?.mode,
  };
  reportFailure('store_delivery_refused', { ...known, status, reason: error });
  return answer(status, { error });
}

const answer = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: body === undefined ? {} : { 'Content-Type': 'application/json' } });

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
 */
export async function receiveWooCommerceDelivery(req: Request, storeId: string, db: Db = sharedDb()): Promise<Response> {
  let raw: Buffer;
  try {
    raw = Buffer.from(await readBody(req), 'utf8');
  } catch (err) {
    if (err instanceof AppError) return refuse(413, 'body_too_large', { storeId });
    throw err;
  }
  const topic = req.headers.get('x-wc-webhook-topic');
  if (!topic && PING.test(raw.toString('utf8').trim())) return answer(200);
  const webhookId = Number(req.headers.get('x-wc-webhook-id'));
  const signature = req.headers.get('x-wc-webhook-signature');
  if (!STORE_ID.test(storeId) || !topic || !signature || !Number.isSafeInteger(webhookId) || webhookId <= 0)
    return refuse(401, 'signature_invalid', { storeId, topic });
  const webhook = await storeWebhook(db, storeId, webhookId);
  if (!webhook || !signatureMatches(webhook.secret, raw, signature)) return refuse(401, 'signature_invalid', { storeId, webhookId, topic, webhook });
  // verified, but not about orders (or a deleted order's bare {id}): nothing to do, and still a success for WooCommerce
  if (!topic.startsWith('order.') || topic === 'order.deleted') return answer(200);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return refuse(400, 'body_invalid_json', { storeId, webhookId, topic, webhook });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse(400, 'body_invalid_json', { storeId, webhookId, topic, webhook });
  const hash = createHash('sha256').update(`${topic}\n${webhookId}\n`).update(raw).digest('hex');
  await db.$client.unsafe(STORE, [storeId, hash, topic, webhookId, raw.toString('utf8'), JOBS.store_delivery.maxAttempts ?? 25], { prepare: true });
  return answer(200);
}
