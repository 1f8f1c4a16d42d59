import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { createDb } from '@/server/db/client';
import { storeConnections, storeDeliveries, storeWebhooks } from '@/server/db/schema';
import { newId } from '@/server/ids';
import { sealWebhookSecret } from '@/server/webhooks/webhook-secret';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { receiveStoreDelivery } from './ingest';
import { woocommerce } from './woocommerce/platform';

const t = useTestDatabase();
const SECRET = 'Abc-123_secret';
const WEBHOOK_ID = 41;
let storeId = '';

beforeAll(async () => {
  const acct = await createTestAccount(t.db());
  storeId = newId('st');
  await t
    .db()
    .insert(storeConnections)
    .values({ id: storeId, accountId: acct.accountId, mode: 'test', url: 'https://sklep.example.pl/', credentials: 'sealed', status: 'connected' });
  await t
    .db()
    .insert(storeWebhooks)
    .values({ storeId, remoteId: WEBHOOK_ID, topic: 'order.updated', secret: sealWebhookSecret(SECRET) });
});

/** A delivery as WooCommerce sends it: the signature is over exactly these bytes. */
function delivery(body: string | Buffer, o: { signed?: boolean; store?: string } = {}) {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-WC-Webhook-Topic': 'order.updated',
    'X-WC-Webhook-ID': String(WEBHOOK_ID),
  };
  if (o.signed !== false) headers['X-WC-Webhook-Signature'] = createHmac('sha256', SECRET).update(bytes).digest('base64');
  return new Request(`http://test/hooks/woocommerce/${o.store ?? storeId}`, { method: 'POST', headers, body: new Uint8Array(bytes) });
}

async function send(req: Request, db = t.db()) {
  const requestId = newId('req');
  const res = await receiveStoreDelivery(woocommerce, req, storeId, requestId, db);
  expect(res.headers.get('Request-Id')).toBe(requestId);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as { error: string; message: string }) : null };
}

const stored = async () =>
  (
    await t
      .db()
      .select({ n: sql<number>`count(*)::int` })
      .from(storeDeliveries)
      .where(eq(storeDeliveries.storeId, storeId))
  )[0]!.n;
const jobs = async () =>
  (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'store_delivery'`))[0]!.n;

test('a signed delivery holding NUL or an unpaired surrogate gets 400 body_invalid_json naming where, with Request-Id; nothing is stored', async () => {
  const cases = [
    ['{"id":1,"billing":{"company":"Kawa\\u0000Sp"}}', 'billing.company'],
    ['{"id":1,"customer_note":"\\ud800"}', 'customer_note'],
    ['{"id":1,"line_items":[{"name":"x\\udfffy"}]}', 'line_items[0].name'],
    ['{"id":1,"meta_data":{"\\u0000":1}}', 'meta_data'],
  ] as const;
  for (const [body, where] of cases) {
    const res = await send(delivery(body));
    expect(res.status, body).toBe(400);
    expect(res.body).toEqual({ error: 'body_invalid_json', message: expect.stringContaining(`at ${where},`) });
  }
  expect([await stored(), await jobs()]).toEqual([0, 0]);
});

test('signed bytes that are not UTF-8 get 400 body_invalid_json (not 413); unsigned ones 401; over 1 MB 413', async () => {
  const notUtf8 = Buffer.concat([Buffer.from('{"id":1,"billing":{"company":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}}')]);
  expect(await send(delivery(notUtf8))).toEqual({ status: 400, body: { error: 'body_invalid_json', message: 'The request body is not valid UTF-8.' } });
  expect(await send(delivery(notUtf8, { signed: false }))).toMatchObject({ status: 401, body: { error: 'signature_invalid' } });
  expect(await send(delivery('[1,2]'))).toMatchObject({ status: 400, body: { error: 'body_invalid_json' } });
  expect(await send(delivery('{"id":'))).toMatchObject({ status: 400, body: { error: 'body_invalid_json' } });
  expect(await send(delivery(`{"id":1,"x":"${'x'.repeat(1_000_000)}"}`))).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
  expect([await stored(), await jobs()]).toEqual([0, 0]);
});

test('a good delivery and the ping get 200 with Request-Id; the delivery is stored with its job', async () => {
  expect(await send(delivery('{"id":7,"status":"processing","billing":{"company":"Kawa Sp. z o.o. 😀"}}'))).toEqual({ status: 200, body: null });
  const ping = new Request(`http://test/hooks/woocommerce/${storeId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: `webhook_id=${WEBHOOK_ID}`,
  });
  expect(await send(ping)).toEqual({ status: 200, body: null });
  expect([await stored(), await jobs()]).toEqual([1, 1]);
});

test('a failure of ours (the database is unreachable) is a 500 internal_error with Request-Id', async () => {
  const down = createDb('postgres://postgres@127.0.0.1:1/none', { max: 1, connectTimeoutSeconds: 1 });
  try {
    const other = new Request(`http://test/hooks/woocommerce/${storeId}`, {
      method: 'POST',
      headers: { 'X-WC-Webhook-Topic': 'order.updated', 'X-WC-Webhook-ID': '999', 'X-WC-Webhook-Signature': 'x' },
      body: '{}',
    });
    expect(await send(other, down)).toMatchObject({ status: 500, body: { error: 'internal_error' } });
  } finally {
    await down.$client.end({ timeout: 1 });
  }
});
