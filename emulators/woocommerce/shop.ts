import { randomBytes } from 'node:crypto';
import type { ApiKey } from './auth';
import { gmt, type Order } from './orders';

export type Webhook = {
  id: number;
  name: string;
  status: 'active' | 'paused' | 'disabled';
  topic: string;
  delivery_url: string;
  secret: string;
  failure_count: number;
  pending_delivery: boolean;
  date_created_gmt: string;
  date_modified_gmt: string;
};

/** The emulated shop's state: keys, orders, webhooks, deliveries queued and running, and its counters. */
export type Shop = {
  /** The shop's clock (OAuth timestamps, order dates). */
  now: () => Date;
  /** The shop's address with a trailing slash, known once the server listens. */
  home: string;
  keys: Map<string, ApiKey>;
  orders: Map<number, Order>;
  webhooks: Map<number, Webhook>;
  /** Deliveries waiting for Action Scheduler, by `webhookId:orderId`. */
  pending: Map<string, NodeJS.Timeout>;
  running: Set<Promise<void>>;
  counters: { requests: number; deliveries: number; delivered: number; failed: number; pings: number };
  /** The next id of an order, refund or meta entry (one sequence, as WordPress' posts and meta share theirs). */
  ids: () => number;
  nextWebhook: number;
  nextNote: number;
  failDeliveries: boolean;
  restEnabled: boolean;
  deliveryTimeoutMs: number;
  deliveryDelayMs: number;
};

export function createShop(options: { now?: () => Date; deliveryTimeoutMs?: number; deliveryDelayMs?: number }): Shop {
  let nextId = 4800;
  return {
    now: options.now ?? (() => new Date()),
    home: '',
    keys: new Map(),
    orders: new Map(),
    webhooks: new Map(),
    pending: new Map(),
    running: new Set(),
    counters: { requests: 0, deliveries: 0, delivered: 0, failed: 0, pings: 0 },
    ids: () => nextId++,
    nextWebhook: 1,
    nextNote: 1,
    failDeliveries: false,
    restEnabled: true,
    // WooCommerce waits 60 s (MINUTE_IN_SECONDS)
    deliveryTimeoutMs: options.deliveryTimeoutMs ?? 60_000,
    deliveryDelayMs: options.deliveryDelayMs ?? 0,
  };
}

export function addKey(shop: Shop, permissions: ApiKey['permissions'] = 'read_write', key?: string, secret?: string): ApiKey {
  const k: ApiKey = {
    consumerKey: key ?? `ck_${randomBytes(20).toString('hex')}`,
    consumerSecret: secret ?? `cs_${randomBytes(20).toString('hex')}`,
    permissions,
    nonces: new Map(),
  };
  shop.keys.set(k.consumerKey, k);
  return k;
}

export function touch(shop: Shop, order: Order) {
  const at = gmt(shop.now());
  order.date_modified_gmt = at > order.date_modified_gmt ? at : order.date_modified_gmt;
}

export function setStatus(shop: Shop, order: Order, status: string) {
  order.status = status;
  // date_paid is stamped the first time the order reaches processing (or completed) (woocommerce.md §5)
  if ((status === 'processing' || status === 'completed') && !order.date_paid_gmt) order.date_paid_gmt = gmt(shop.now());
  if (status === 'completed' && !order.date_completed_gmt) order.date_completed_gmt = gmt(shop.now());
}
