import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { signOAuth } from '@/server/stores/woocommerce/oauth';
import { wooControl, type WooKey } from './control-client';
import { startWooEmulator, type WooEmulator } from './server';

type Received = { headers: IncomingMessage['headers']; body: string };

/** A delivery receiver whose answer each test sets. */
let receiver: Server;
let receiverUrl = '';
let reply: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(200).end();
const received: Received[] = [];

let woo: WooEmulator;
let key: WooKey;
const shop = () => wooControl(woo.url);

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      reply(req, res);
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  woo = await startWooEmulator({ port: 0, deliveryTimeoutMs: 300 });
  key = await shop().createKey();
});
afterAll(async () => {
  await woo?.close();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

/** An OAuth-signed REST call, as the service's client makes it over HTTP. */
async function rest(method: string, path: string, o: { query?: Record<string, string>; body?: unknown; key?: WooKey } = {}) {
  const k = o.key ?? key;
  const url = `${woo.url}/wp-json/wc/v3/${path}`;
  const query = Object.entries(o.query ?? {});
  const oauth = signOAuth({ method, url, query, consumerKey: k.consumer_key, consumerSecret: k.consumer_secret, timestamp: Math.floor(Date.now() / 1000) });
  const res = await fetch(`${url}?${new URLSearchParams([...query, ...Object.entries(oauth)])}`, {
    method,
    headers: o.body === undefined ? {} : { 'content-type': 'application/json' },
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST answers of several shapes, read field by field
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('WooCommerce emulator', () => {
  test('orders list: modified_after with dates_are_gmt, per_page ≤ 100, X-WP-Total / X-WP-TotalPages / Link', async () => {
    const since = new Date(Date.now() - 1000).toISOString().slice(0, 19);
    for (let i = 0; i < 3; i++) await shop().createOrder({ nip: '3861610227' });
    const page1 = await rest('GET', 'orders', { query: { modified_after: since, dates_are_gmt: 'true', per_page: '2', orderby: 'id', order: 'asc' } });
    expect(page1.status).toBe(200);
    expect(page1.headers.get('x-wp-total')).toBe('3');
    expect(page1.headers.get('x-wp-totalpages')).toBe('2');
    expect(page1.headers.get('link')).toContain('rel="next"');
    expect(page1.body).toHaveLength(2);
    expect(page1.body[0].id).toBeLessThan(page1.body[1].id);
    const future = await rest('GET', 'orders', { query: { modified_after: '2099-01-01T00:00:00', dates_are_gmt: 'true' } });
    expect(future.body).toEqual([]);
    const tooMany = await rest('GET', 'orders', { query: { per_page: '101' } });
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
  });

  test('order meta update merges by key; notes are created; a read-only key gets 401 before routing', async () => {
    const order = await shop().createOrder({ nip: '3861610227' });
    const put = await rest('PUT', `orders/${order.id}`, { body: { meta_data: [{ key: '_ksef_number', value: 'X' }] } });
    expect(put.status).toBe(200);
    expect(put.body.meta_data.map((m: { key: string }) => m.key)).toEqual(['_billing_nip', '_ksef_number']);
    await rest('PUT', `orders/${order.id}`, { body: { meta_data: [{ key: '_ksef_number', value: 'Y' }] } });
    expect((await shop().order(order.id)).meta_data.filter((m) => m.key === '_ksef_number')).toMatchObject([{ value: 'Y' }]);
    const note = await rest('POST', `orders/${order.id}/notes`, { body: { note: 'Faktura', customer_note: true } });
    expect(note).toMatchObject({ status: 201, body: { note: 'Faktura', customer_note: true } });
    const readOnly = await shop().createKey('read');
    const denied = await rest('POST', 'no/such/route', { key: readOnly, body: {} });
    expect(denied).toMatchObject({
      status: 401,
      body: { code: 'woocommerce_rest_authentication_error', message: 'The API key provided does not have write permissions.' },
    });
  });

  test('an order deleted permanently answers 404 for itself and its notes; a revoked key gets 401', async () => {
    const order = await shop().createOrder({ nip: '3861610227' });
    await shop().deleteOrder(order.id);
    expect(await rest('PUT', `orders/${order.id}`, { body: { meta_data: [] } })).toMatchObject({
      status: 404,
      body: { code: 'woocommerce_rest_shop_order_invalid_id', message: 'Invalid ID.', data: { status: 404 } },
    });
    expect(await rest('POST', `orders/${order.id}/notes`, { body: { note: 'Faktura' } })).toMatchObject({
      status: 404,
      body: { code: 'woocommerce_rest_order_invalid_id', data: { status: 404 } },
    });
    const revoked = await shop().createKey();
    await shop().revokeKey(revoked.consumer_key);
    expect(await rest('GET', 'orders', { key: revoked })).toMatchObject({
      status: 401,
      body: { code: 'woocommerce_rest_authentication_error', message: 'Consumer key is invalid.' },
    });
  });

  test('webhooks: create pings synchronously with webhook_id=N, DELETE needs force=true', async () => {
    received.length = 0;
    const created = await rest('POST', 'webhooks', { body: { name: 'x', topic: 'order.updated', delivery_url: receiverUrl, secret: 'abc', status: 'paused' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'active', secret: 'abc' }); // status ignored on create
    expect(received).toHaveLength(1); // before the answer
    expect(received[0]!.body).toBe(`webhook_id=${created.body.id}`);
    expect(received[0]!.headers['x-wc-webhook-signature']).toBeUndefined();
    expect((await rest('GET', `webhooks/${created.body.id}`)).body.secret).toBeUndefined();
    expect(await rest('DELETE', `webhooks/${created.body.id}`)).toMatchObject({ status: 501, body: { code: 'woocommerce_rest_trash_not_supported' } });
    expect((await rest('DELETE', `webhooks/${created.body.id}`, { query: { force: 'true' } })).status).toBe(200);
    expect((await rest('GET', `webhooks/${created.body.id}`)).status).toBe(404);
  });

  test('a delivery: WooCommerce headers, base64 HMAC-SHA256 of the raw body, wp_json_encode escaping, built at send time', async () => {
    const hook = await rest('POST', 'webhooks', { body: { topic: 'order.updated', delivery_url: receiverUrl, secret: 'sekret' } });
    received.length = 0;
    const order = await shop().createOrder({ nip: '3861610227' });
    await shop().pay(order.id);
    await shop().idle();
    const delivery = received.find((r) => r.headers['x-wc-webhook-topic'] === 'order.updated')!;
    expect(delivery.headers).toMatchObject({
      'content-type': 'application/json',
      'x-wc-webhook-resource': 'order',
      'x-wc-webhook-event': 'updated',
      'x-wc-webhook-id': String(hook.body.id),
      'x-wc-webhook-source': `${woo.url}/`,
    });
    expect(delivery.headers['user-agent']).toMatch(/^WooCommerce\/\S+ Hookshot \(WordPress\/\S+\)$/);
    expect(delivery.headers['x-wc-webhook-delivery-id']).toMatch(/^[0-9a-f]{32}$/);
    expect(delivery.headers['x-wc-webhook-signature']).toBe(createHmac('sha256', 'sekret').update(delivery.body).digest('base64'));
    expect(delivery.body).toContain('\\/wp-json\\/wc\\/v3\\/orders'); // `/` escaped
    expect(delivery.body).toContain('\\u015b'); // non-ASCII escaped (ciśnieniowy)
    expect(JSON.parse(delivery.body)).toMatchObject({ id: order.id, status: 'processing' });
    await rest('DELETE', `webhooks/${hook.body.id}`, { query: { force: 'true' } });
  });

  test('success is 200–302; time-outs and other answers count; the 7th consecutive failure disables; re-activating keeps the count', async () => {
    const hook = await rest('POST', 'webhooks', { body: { topic: 'order.updated', delivery_url: receiverUrl, secret: 's' } });
    const order = await shop().createOrder({ nip: '3861610227' });
    const state = async () => (await shop().state()).webhooks.find((w) => w.id === hook.body.id)!;
    const event = async () => {
      await shop().pay(order.id);
      await shop().idle();
    };
    reply = (_req, res) => res.writeHead(302, { location: '/elsewhere' }).end();
    await event();
    expect(await state()).toMatchObject({ status: 'active', failure_count: 0 });
    reply = () => undefined; // never answers: the delivery time-out
    await event();
    expect((await state()).failure_count).toBe(1);
    reply = (_req, res) => res.writeHead(500).end();
    for (let i = 0; i < 5; i++) await event();
    expect(await state()).toMatchObject({ status: 'active', failure_count: 6 });
    await event();
    expect(await state()).toMatchObject({ status: 'disabled', failure_count: 6 });
    await event(); // a disabled webhook sends nothing
    expect((await rest('PUT', `webhooks/${hook.body.id}`, { body: { status: 'active' } })).body.status).toBe('active');
    await event();
    expect(await state()).toMatchObject({ status: 'disabled' }); // one more failure and it is off again
    reply = (_req, res) => res.writeHead(200).end();
  });
});
