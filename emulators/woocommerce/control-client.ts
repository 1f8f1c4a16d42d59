import type { NewOrder, RefundSpec } from './orders';

export type WooKey = { consumer_key: string; consumer_secret: string; permissions: string };
export type WooWebhookState = { id: number; topic: string; status: string; failure_count: number; delivery_url: string; pending_delivery: boolean };
export type WooCounters = {
  requests: number;
  deliveries: number;
  delivered: number;
  failed: number;
  pings: number;
  pending: number;
  webhooks: WooWebhookState[];
};
type WooOrder = {
  id: number;
  status: string;
  date_created_gmt: string;
  line_items: { id: number; quantity: number }[];
  meta_data: { key: string; value: unknown }[];
  notes?: { note: string; customer_note: boolean }[];
  refunds: { id: number }[];
};

/** Typed calls to the WooCommerce emulator's `/__control` endpoint (tests, bench, the dev stack). */
export function wooControl(base: string) {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}/__control${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const out = (await res.json()) as T & { error?: string };
    if (!res.ok) throw new Error(`WooCommerce emulator ${method} ${path}: ${res.status} ${out.error ?? ''}`);
    return out;
  };
  return {
    createKey: (permissions: 'read' | 'write' | 'read_write' = 'read_write') => call<WooKey>('POST', '/keys', { permissions }),
    revokeKey: (consumerKey: string) => call<unknown>('DELETE', `/keys/${consumerKey}`),
    /** `placedAt` (ISO 8601) backdates date_created and date_modified; paying it still happens now. */
    createOrder: (spec: NewOrder & { paid?: boolean; completed?: boolean; placedAt?: string } = {}) => call<WooOrder>('POST', '/orders', spec),
    order: (id: number) => call<WooOrder>('GET', `/orders/${id}`),
    /** Deletes the order permanently, as "Delete permanently" in wp-admin or `DELETE /orders/{id}?force=true`. */
    deleteOrder: (id: number) => call<unknown>('DELETE', `/orders/${id}`),
    pay: (id: number) => call<WooOrder>('POST', `/orders/${id}/pay`),
    complete: (id: number) => call<WooOrder>('POST', `/orders/${id}/complete`),
    cancel: (id: number) => call<WooOrder>('POST', `/orders/${id}/cancel`),
    refund: (id: number, spec: RefundSpec) => call<{ id: number; amount: string }>('POST', `/orders/${id}/refund`, spec),
    failDeliveries: (fail: boolean) => call<unknown>('POST', '/deliveries', { fail }),
    setRest: (enabled: boolean) => call<unknown>('POST', '/rest', { enabled }),
    /** Waits until every queued delivery has been sent. */
    idle: () => call<WooCounters>('POST', '/idle'),
    state: () => call<WooCounters>('GET', ''),
  };
}
export type WooControl = ReturnType<typeof wooControl>;
