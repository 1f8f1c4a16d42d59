import type { ServerResponse } from 'node:http';
import { fire } from './deliveries';
import { fail, HttpError, paged, type Reply } from './http';
import { gmt, local, orderJson, refundJson, type Order } from './orders';
import { setStatus, touch, type Shop } from './shop';

/** A REST request to one resource: its method, URL, parsed body, the path after the resource, and the response (for headers). */
export type RestRequest = { method: string; url: URL; body: Record<string, unknown>; path: (string | undefined)[]; res: ServerResponse };

function listOrders(shop: Shop, url: URL, res: ServerResponse) {
  const q = url.searchParams;
  const gmtDates = ['1', 'true'].includes(q.get('dates_are_gmt') ?? '');
  const bound = (name: string) => {
    const v = q.get(name);
    if (!v) return null;
    if (Number.isNaN(Date.parse(v)))
      throw new HttpError({
        status: 400,
        code: 'rest_invalid_param',
        message: `Invalid parameter(s): ${name}`,
        data: { status: 400, params: { [name]: `${name} is not a valid date.` } },
      });
    return v.replace(/Z$/, '').slice(0, 19);
  };
  const [after, before, modAfter, modBefore] = ['after', 'before', 'modified_after', 'modified_before'].map(bound);
  const statuses = (q.get('status') ?? 'any').split(',').filter(Boolean);
  const pick = (gmtValue: string) => (gmtDates ? gmtValue : local(gmtValue)!);
  let list = [...shop.orders.values()].filter((o) => {
    if (!statuses.includes('any') && !statuses.includes(o.status)) return false;
    if (statuses.includes('any') && o.status === 'trash') return false;
    // WordPress date queries without `inclusive` are exclusive
    if (after && !(pick(o.date_created_gmt) > after)) return false;
    if (before && !(pick(o.date_created_gmt) < before)) return false;
    if (modAfter && !(pick(o.date_modified_gmt) > modAfter)) return false;
    if (modBefore && !(pick(o.date_modified_gmt) < modBefore)) return false;
    return true;
  });
  const orderby = q.get('orderby') ?? 'date';
  const key = (o: Order) =>
    orderby === 'id'
      ? String(o.id).padStart(12, '0')
      : orderby === 'modified'
        ? `${o.date_modified_gmt}${String(o.id).padStart(12, '0')}`
        : `${o.date_created_gmt}${String(o.id).padStart(12, '0')}`;
  list = list.sort((a, b) => (key(a) < key(b) ? -1 : 1));
  if ((q.get('order') ?? 'desc') === 'desc') list.reverse();
  return paged(list, url, res, shop.home).map((o) => orderJson(o, shop.home));
}

/** GET or update one order: meta_data merged, status set. */
function orderRoute(shop: Shop, { method, body }: RestRequest, id: string): Reply | undefined {
  const order = shop.orders.get(Number(id));
  if (!order) throw fail(404, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
  if (method === 'GET') return [200, orderJson(order, shop.home)];
  if (!['PUT', 'POST', 'PATCH'].includes(method)) return undefined;
  // update_meta_data(key, value, id ?? ''): merge, one entry per key (§4.4)
  for (const m of Array.isArray(body.meta_data) ? (body.meta_data as { id?: number; key: string; value: unknown }[]) : []) {
    const existing = order.meta_data.find((e) => (m.id ? e.id === m.id : e.key === m.key));
    if (existing) existing.value = m.value;
    else order.meta_data.push({ id: shop.ids(), key: m.key, value: m.value });
  }
  if (typeof body.status === 'string') setStatus(shop, order, body.status);
  touch(shop, order);
  fire(shop, order, 'updated');
  return [200, orderJson(order, shop.home)];
}

function refundsRoute(shop: Shop, { url, res }: RestRequest, id: string, refundId: string | undefined): Reply {
  const order = shop.orders.get(Number(id));
  // these two errors carry 404 as plain data, which WordPress turns into HTTP 500 (§4.2)
  if (!order) throw new HttpError({ status: 500, code: 'woocommerce_rest_invalid_order_id', message: 'Invalid order ID.', data: 404 });
  if (!refundId) return [200, paged(order.refunds, url, res, shop.home).map((r) => refundJson(order, r, shop.home))];
  const refund = order.refunds.find((r) => String(r.id) === refundId);
  if (!refund) throw new HttpError({ status: 500, code: 'woocommerce_rest_invalid_order_refund_id', message: 'Invalid order refund ID.', data: 404 });
  return [200, refundJson(order, refund, shop.home)];
}

function notesRoute(shop: Shop, { method, body, res }: RestRequest, id: string): Reply | undefined {
  const order = shop.orders.get(Number(id));
  if (!order) throw fail(404, 'woocommerce_rest_order_invalid_id', 'Invalid order ID.');
  if (method === 'GET') return [200, order.notes];
  if (method !== 'POST') return undefined;
  if (typeof body.note !== 'string' || !body.note) throw fail(400, 'rest_missing_callback_param', 'Missing parameter(s): note');
  const at = gmt(shop.now());
  const note = {
    id: shop.nextNote++,
    author: body.added_by_user ? 'admin' : 'system',
    date_created: local(at)!,
    date_created_gmt: at,
    note: body.note,
    customer_note: body.customer_note === true,
  };
  // a note is a comment: it does not save the order, so no order.updated
  order.notes.push(note);
  res.setHeader('Location', `${shop.home}wp-json/wc/v3/orders/${order.id}/notes/${note.id}`);
  return [201, note];
}

/** /orders, /orders/{id}, /orders/{id}/refunds[/{id}], /orders/{id}/notes; undefined for no route. */
export function ordersRoutes(shop: Shop, r: RestRequest): Reply | undefined {
  const [id, sub, subId] = r.path;
  if (!id) return r.method === 'GET' ? [200, listOrders(shop, r.url, r.res)] : undefined;
  if (!sub) return orderRoute(shop, r, id);
  if (sub === 'refunds' && r.method === 'GET') return refundsRoute(shop, r, id, subId);
  if (sub === 'notes') return notesRoute(shop, r, id);
  return undefined;
}
