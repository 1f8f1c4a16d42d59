import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@/server/errors';
import { mapShopplatformRefund } from '@/server/orders/woocommerce/map-refund';
import { StoreRequestError, type StoreApi, type StoreOrder, type StorePlatform } from '../platform';
import { wooClient, type WooCredentials } from './client';
import { decideOrder, refundIds } from './decide';

const PING = /^webhook_id=\d+$/;
/** Key errors of the client (client.ts) that stay until the merchant gives us a working key again. */
const KEY_REFUSED = new Set(['store_keys_invalid', 'store_keys_read_only', 'store_permission_denied']);

/** WooCommerce's order JSON (REST v3 and webhook bodies alike); null without a usable id. */
function storeOrder(raw: Record<string, unknown>): StoreOrder | null {
  const id = Number(raw.id);
  if (!Number.isInteger(id) || id <= 0) return null;
  // date_created_gmt is UTC without a zone, to the second
  const gmt = typeof raw.date_created_gmt === 'string' ? new Date(`${raw.date_created_gmt.replace(/Z$/, '')}Z`) : null;
  return { id, createdAt: gmt && !Number.isNaN(gmt.getTime()) ? gmt : null, refundIds: refundIds(raw), raw };
}

function api(home: string, credentials: Record<string, string>): StoreApi {
  const client = wooClient(home, credentials as WooCredentials);
  return {
    async check() {
      await client.probe();
      await client.webhooks(); // keys valid, read permission, and a user that may manage webhooks
    },
    async ordersModifiedAfter(since, page) {
      const { orders, totalPages } = await client.ordersModifiedAfter(since, page);
      return { orders: orders.map(storeOrder).filter((o) => o !== null), totalPages };
    },
    refund: (orderId, refundId) => client.refund(orderId, refundId),
    webhooks: async () => (await client.webhooks()).map((w) => ({ id: w.id, status: w.status })),
    async createWebhook(w) {
      const created = await client.createWebhook({ name: w.name, topic: w.topic, delivery_url: w.deliveryUrl, secret: w.secret });
      return { id: created.id, status: created.status };
    },
    async deleteWebhook(id) {
      await client.deleteWebhook(id);
    },
    async addNote(orderId, note, customerNote) {
      await client.addNote(orderId, note, customerNote);
    },
    async setInvoiceMeta(orderId, m) {
      await client.setMeta(orderId, { _ksef_number: m.ksefNumber, _ksef_invoice_number: m.number, _ksef_pdf_url: m.pdfUrl });
    },
  };
}

/** WooCommerce (woocommerce-rules.md): REST v3 with a consumer key, webhooks signed per webhook. */
export const woocommerce: StorePlatform = {
  id: 'woocommerce',
  name: 'WooCommerce',
  /** Orders created and updated (refunds arrive as order.updated, §1.6). */
  topics: ['order.created', 'order.updated'],
  signatureInvalid: 'X-WC-Webhook-ID and X-WC-Webhook-Signature do not match a webhook of this store.',
  credentials(input) {
    const consumerKey = (input.consumerKey ?? '').trim();
    const consumerSecret = (input.consumerSecret ?? '').trim();
    if (!consumerKey) throw new AppError('parameter_missing', 'consumer_key', 'The consumer key is required.');
    if (!consumerSecret) throw new AppError('parameter_missing', 'consumer_secret', 'The consumer secret is required.');
    return { consumerKey, consumerSecret };
  },
  api,
  /** The save-time ping is `webhook_id=N`, unsigned; a delivery names its webhook, topic and signature (§1). */
  envelope(headers, raw) {
    const topic = headers.get('x-wc-webhook-topic');
    if (!topic && PING.test(raw.toString('utf8').trim())) return { ping: true };
    const webhookId = Number(headers.get('x-wc-webhook-id'));
    const signature = headers.get('x-wc-webhook-signature');
    if (!topic || !signature || !Number.isSafeInteger(webhookId) || webhookId <= 0) return { unsigned: true, topic };
    return { webhookId, topic, signature };
  },
  /** A base64 HMAC-SHA256 of the raw body with the webhook's secret, compared in constant time. */
  signatureMatches(secret, raw, given) {
    const expected = Buffer.from(createHmac('sha256', secret).update(raw).digest('base64'));
    const actual = Buffer.from(given);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
  /** order.deleted carries a bare {id}; other resources are not ours. */
  carriesOrder: (topic) => topic.startsWith('order.') && topic !== 'order.deleted',
  /** A body that is no order (the webhook user lost access and WooCommerce sent its REST error instead) names none. */
  orderOf: (body) => (Number.isInteger(body.id) && Array.isArray(body.line_items) ? storeOrder(body) : null),
  decideOrder: (order, settings) => decideOrder(order.raw, settings),
  mapRefund: (order, refund) => mapShopplatformRefund(order.raw, refund),
  /**
   * Gone: 404 for the order or its notes (`woocommerce_rest_shop_order_invalid_id`, `woocommerce_rest_order_invalid_id`:
   * deleted for good), and a deleted refund, which comes as HTTP 500 `woocommerce_rest_invalid_order_refund_id`
   * (§4.2). Keys refused: 401/403 (revoked, or downgraded to read). Anything else (time-outs, 5xx, a REST API
   * switched off for a while) is retried.
   */
  classify(err) {
    if (err instanceof StoreRequestError && (err.status === 404 || /invalid_order_refund_id|invalid_order_id/.test(err.code))) return 'gone';
    if (err instanceof AppError && KEY_REFUSED.has(err.code)) return 'keys_refused';
    return 'retry';
  },
};
