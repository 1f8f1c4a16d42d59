import { createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { wooControl, type WooControl } from '@/emulators/woocommerce/control-client';
import { startWooEmulator, type WooEmulator } from '@/emulators/woocommerce/server';
import { randomNip } from '@/emulators/ksef/testing';
import { resetConfig } from '@/server/config';
import { documents, storeConnections, storeDeliveries, storeOrders, storeWebhooks } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { unsealWebhookSecret } from '@/server/webhooks/webhook-secret';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { startWeb, waitFor, type RunningProcess } from '@/test/web';
import { connectStore } from './connect';
import { disconnectStore } from './disconnect';
import { updateStoreSettings } from './settings';
import { syncStore } from './sync';
import { wooClient } from './woocommerce/client';
import { signOAuth } from './woocommerce/oauth';

const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);
let web: RunningProcess;
let woo: WooEmulator;
let shop: WooControl;

/** A valid NIP of a buyer company (checksum-correct). */
const BUYER_NIP = '386-161-02-27';

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
  // the worker and connect run in this process: delivery URLs and pdf_url point at the web server
  process.env.PUBLIC_BASE_URL = web.url;
  resetConfig();
  woo = await startWooEmulator({ port: 0 });
  shop = wooControl(woo.url);
});
afterAll(async () => {
  await woo?.close();
  await web?.stop();
});

async function connectedAccount() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const key = await shop.createKey();
  const connected = await connectStore(t.db(), acct.testScope, { url: woo.url, consumerKey: key.consumer_key, consumerSecret: key.consumer_secret });
  return { ...acct, key, storeId: connected.store, connected };
}

const invoiceOf = async (accountId: string, orderId: number) => {
  let id: string | undefined;
  await waitFor(
    async () => {
      const [doc] = await t
        .db()
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.accountId, accountId), eq(documents.kind, 'invoice'), eq(documents.orderExternalId, String(orderId))));
      id = doc?.id;
      return !!id;
    },
    20_000,
    () => `no invoice for order ${orderId}`,
  );
  return waitForStatus(t.db(), id!, ['accepted', 'rejected', 'error', 'skipped']);
};

const countDeliveries = async (storeId: string) =>
  (
    await t
      .db()
      .select({ n: sql<number>`count(*)::int` })
      .from(storeDeliveries)
      .where(eq(storeDeliveries.storeId, storeId))
  )[0]!.n;

async function webhookSecret(storeId: string, topic: string) {
  const [hook] = await t
    .db()
    .select()
    .from(storeWebhooks)
    .where(and(eq(storeWebhooks.storeId, storeId), eq(storeWebhooks.topic, topic)));
  return { id: hook!.remoteId, secret: unsealWebhookSecret(hook!.secret) };
}

const post = (storeId: string, body: string, headers: Record<string, string>) =>
  fetch(`${web.url}/hooks/woocommerce/${storeId}`, { method: 'POST', headers, body });

describe('WooCommerce store connection (emulator over HTTP, OAuth 1.0a)', () => {
  let main: Awaited<ReturnType<typeof connectedAccount>>;

  test('connect registers order.created and order.updated in the store, each with its own secret, and answers their pings', async () => {
    main = await connectedAccount();
    expect(main.connected.store).toMatch(/^st_/);
    expect(main.connected.webhooks.map((w) => w.topic).sort()).toEqual(['order.created', 'order.updated']);
    const state = await shop.state();
    const ours = state.webhooks.filter((w) => w.delivery_url === `${web.url}/hooks/woocommerce/${main.storeId}`);
    expect(ours).toHaveLength(2);
    expect(ours.every((w) => w.status === 'active' && !w.pending_delivery)).toBe(true); // ping got exactly 200
    const secrets = await Promise.all(['order.created', 'order.updated'].map((topic) => webhookSecret(main.storeId, topic)));
    expect(secrets[0]!.secret).not.toBe(secrets[1]!.secret);
    expect(secrets[0]!.secret).toMatch(/^[0-9A-Za-z]{40,}$/);
  });

  let paidOrderId = 0;
  test('a paid B2B order becomes an accepted invoice, and the order gets the note and meta back', async () => {
    const order = await shop.createOrder({ nip: BUYER_NIP, paid: true });
    paidOrderId = order.id;
    const invoice = await invoiceOf(main.accountId, order.id);
    expect(invoice.status).toBe('accepted');
    expect(invoice.buyerNip).toBe('3861610227');
    await expect
      .poll(async () => (await shop.order(order.id)).meta_data.find((m) => m.key === '_ksef_number')?.value, { timeout: 20_000 })
      .toBe(invoice.ksefNumber);
    const back = await shop.order(order.id);
    expect(back.meta_data.find((m) => m.key === '_ksef_invoice_number')?.value).toBe(invoice.number);
    expect(String(back.meta_data.find((m) => m.key === '_ksef_pdf_url')?.value)).toMatch(new RegExp(`^${web.url}/d/[0-9A-Za-z]{22,}$`));
    expect(back.notes).toHaveLength(1);
    expect(back.notes![0]!.customer_note).toBe(true);
    expect(back.notes![0]!.note).toContain(invoice.number!);
    expect(back.notes![0]!.note).toContain(invoice.ksefNumber!);
    // our meta write came back as order.updated: still one invoice, nothing skipped
    await shop.idle();
    const docs = await t
      .db()
      .select()
      .from(documents)
      .where(and(eq(documents.accountId, main.accountId), eq(documents.orderExternalId, String(order.id))));
    expect(docs).toHaveLength(1);
  });

  test('a B2C order is skipped quietly and counted', async () => {
    const order = await shop.createOrder({ paid: true });
    await shop.idle();
    await expect
      .poll(
        async () =>
          (
            await t
              .db()
              .select()
              .from(storeOrders)
              .where(and(eq(storeOrders.storeId, main.storeId), eq(storeOrders.remoteId, order.id)))
          )[0]?.reason,
        { timeout: 15_000 },
      )
      .toBe('buyer_nip_missing');
    const docs = await t
      .db()
      .select()
      .from(documents)
      .where(and(eq(documents.accountId, main.accountId), eq(documents.orderExternalId, String(order.id))));
    expect(docs).toHaveLength(0);
  });

  test('a wrong, missing or foreign signature gets 401 and stores nothing; the ping gets 200; a body over 1 MB gets 413', async () => {
    const before = await countDeliveries(main.storeId);
    const { id, secret } = await webhookSecret(main.storeId, 'order.updated');
    const body = JSON.stringify({ id: 1, status: 'completed', line_items: [] });
    const headers = { 'Content-Type': 'application/json', 'X-WC-Webhook-Topic': 'order.updated', 'X-WC-Webhook-ID': String(id) };
    const wrong = createHmac('sha256', `${secret}x`).update(body).digest('base64');
    expect((await post(main.storeId, body, { ...headers, 'X-WC-Webhook-Signature': wrong })).status).toBe(401);
    expect((await post(main.storeId, body, headers)).status).toBe(401);
    const signed = createHmac('sha256', secret).update(body).digest('base64');
    expect((await post(main.storeId, `${body} `, { ...headers, 'X-WC-Webhook-Signature': signed })).status).toBe(401); // not the signed bytes
    expect((await post('st_unknown0000', body, { ...headers, 'X-WC-Webhook-Signature': signed })).status).toBe(401);
    expect((await post(main.storeId, `webhook_id=${id}`, { 'Content-Type': 'application/x-www-form-urlencoded' })).status).toBe(200);
    const big = 'x'.repeat(1_000_001);
    expect((await post(main.storeId, big, { ...headers, 'X-WC-Webhook-Signature': createHmac('sha256', secret).update(big).digest('base64') })).status).toBe(
      413,
    );
    expect(await countDeliveries(main.storeId)).toBe(before);
  });

  test('the same delivery twice is stored once and makes one invoice', async () => {
    await shop.failDeliveries(true); // the emulator stays quiet: we deliver this one ourselves
    const order = await shop.createOrder({ nip: BUYER_NIP, paid: true });
    await shop.idle();
    await shop.failDeliveries(false);
    const { notes: _notes, ...body } = await shop.order(order.id);
    const raw = JSON.stringify(body);
    const { id, secret } = await webhookSecret(main.storeId, 'order.updated');
    const headers = {
      'Content-Type': 'application/json',
      'X-WC-Webhook-Topic': 'order.updated',
      'X-WC-Webhook-ID': String(id),
      'X-WC-Webhook-Signature': createHmac('sha256', secret).update(raw).digest('base64'),
    };
    const before = await countDeliveries(main.storeId);
    const answers = await Promise.all([post(main.storeId, raw, headers), post(main.storeId, raw, headers)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await countDeliveries(main.storeId)).toBe(before + 1);
    expect((await invoiceOf(main.accountId, order.id)).status).toBe('accepted');
    const docs = await t
      .db()
      .select()
      .from(documents)
      .where(and(eq(documents.accountId, main.accountId), eq(documents.orderExternalId, String(order.id))));
    expect(docs).toHaveLength(1);
  });

  test('a partial refund becomes an accepted KOR, fetched through the REST API, and is noted on the order', async () => {
    const order = await shop.order(paidOrderId);
    const line = order.line_items.find((l) => l.quantity === 2)!;
    const refund = await shop.refund(paidOrderId, { items: [{ line: line.id, quantity: 1 }], reason: 'Uszkodzony w transporcie' });
    let id: string | undefined;
    await waitFor(async () => {
      const [doc] = await t
        .db()
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.accountId, main.accountId), eq(documents.kind, 'correction'), eq(documents.refundExternalId, String(refund.id))));
      id = doc?.id;
      return !!id;
    }, 20_000);
    const kor = await waitForStatus(t.db(), id!, ['accepted', 'rejected', 'error', 'skipped']);
    expect(kor.status).toBe('accepted');
    expect(kor.number).toMatch(/^KOR\//);
    expect(kor.totalGrossGrosze).toBe(-5_999);
    await expect.poll(async () => (await shop.order(paidOrderId)).notes!.some((n) => n.note.includes(kor.number!)), { timeout: 20_000 }).toBe(true);
    const corrections = await t
      .db()
      .select()
      .from(documents)
      .where(and(eq(documents.accountId, main.accountId), eq(documents.kind, 'correction')));
    expect(corrections).toHaveLength(1);
  });

  test('deliveries fail until WooCommerce disables our webhooks; reconciliation invoices what was missed and re-creates them', async () => {
    await shop.failDeliveries(true);
    const missed = [];
    // each paid order fails once per webhook; the 7th consecutive failure disables (failure_count > 5)
    for (let i = 0; i < 7; i++) missed.push(await shop.createOrder({ nip: BUYER_NIP, paid: true }));
    await shop.idle();
    const state = await shop.state();
    const ours = state.webhooks.filter((w) => w.delivery_url.endsWith(main.storeId));
    expect(ours.map((w) => w.status)).toEqual(['disabled', 'disabled']);
    await shop.failDeliveries(false);

    const result = await syncStore(t.db(), main.storeId);
    expect(result.webhooks).toHaveLength(2);
    expect(result.webhooks.join(' ')).toContain('disabled');
    expect(result.invoiced).toBe(7);
    for (const o of missed) expect((await invoiceOf(main.accountId, o.id)).status).toBe('accepted');
    const after = (await shop.state()).webhooks.filter((w) => w.delivery_url.endsWith(main.storeId));
    expect(after.map((w) => [w.status, w.failure_count])).toEqual([
      ['active', 0],
      ['active', 0],
    ]);
    const [row] = await t.db().select().from(storeConnections).where(eq(storeConnections.id, main.storeId));
    expect(row!.lastSyncResult?.webhooks).toHaveLength(2);
    const notes = await t.db().select({ note: storeWebhooks.note }).from(storeWebhooks).where(eq(storeWebhooks.storeId, main.storeId));
    expect(notes.every((n) => n.note?.includes('disabled'))).toBe(true);

    // and deliveries work again through the new webhooks
    const next = await shop.createOrder({ nip: BUYER_NIP, paid: true });
    expect((await invoiceOf(main.accountId, next.id)).status).toBe('accepted');
  });

  test('store settings: only completed means "invoice now", and the note is a private one', async () => {
    await updateStoreSettings(t.db(), main.testScope, main.storeId, { invoiceStatuses: ['completed'], customerNote: false });
    const order = await shop.createOrder({ nip: BUYER_NIP, paid: true });
    await shop.idle();
    await expect
      .poll(
        async () =>
          (
            await t
              .db()
              .select()
              .from(storeOrders)
              .where(and(eq(storeOrders.storeId, main.storeId), eq(storeOrders.remoteId, order.id)))
          )[0]?.reason,
        { timeout: 15_000 },
      )
      .toBe('order_not_paid');
    await shop.complete(order.id);
    expect((await invoiceOf(main.accountId, order.id)).status).toBe('accepted');
    await expect.poll(async () => (await shop.order(order.id)).notes!.map((n) => n.customer_note), { timeout: 20_000 }).toEqual([false]);
    await expect(updateStoreSettings(t.db(), main.testScope, main.storeId, { invoiceStatuses: [] })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'invoiceStatuses',
    });
  });

  test('disconnect removes our webhooks from the store', async () => {
    const other = await connectedAccount();
    const out = await disconnectStore(t.db(), other.storeId);
    expect(out.removed).toHaveLength(2);
    const left = (await shop.state()).webhooks.filter((w) => w.delivery_url.endsWith(other.storeId));
    expect(left).toEqual([]);
  });
});

describe('connect says what failed, and leaves nothing behind', () => {
  const attempt = async (input: { url: string; consumerKey: string; consumerSecret: string }, mode: 'test' | 'live' = 'test') => {
    const acct = await createTestAccount(t.db());
    const hooks = (await shop.state()).webhooks.length;
    const err = await connectStore(t.db(), { accountId: acct.accountId, mode }, input).then(
      () => null,
      (e: unknown) => e,
    );
    expect((await shop.state()).webhooks.length).toBe(hooks);
    expect(await t.db().select().from(storeConnections).where(eq(storeConnections.accountId, acct.accountId))).toEqual([]);
    return err as AppError;
  };

  test('wrong keys, read-only keys, unreachable store, REST disabled', async () => {
    const key = await shop.createKey();
    expect((await attempt({ url: woo.url, consumerKey: key.consumer_key, consumerSecret: 'cs_wrong' })).code).toBe('store_keys_invalid');
    expect((await attempt({ url: woo.url, consumerKey: 'ck_unknown', consumerSecret: key.consumer_secret })).code).toBe('store_keys_invalid');
    const readOnly = await shop.createKey('read');
    const ro = await attempt({ url: woo.url, consumerKey: readOnly.consumer_key, consumerSecret: readOnly.consumer_secret });
    expect(ro.code).toBe('store_keys_read_only');
    expect(ro.message).toContain('does not have write permissions');
    expect((await attempt({ url: 'http://127.0.0.1:9', consumerKey: key.consumer_key, consumerSecret: key.consumer_secret })).code).toBe('store_unreachable');
    await shop.setRest(false);
    try {
      expect((await attempt({ url: woo.url, consumerKey: key.consumer_key, consumerSecret: key.consumer_secret })).code).toBe('store_rest_disabled');
    } finally {
      await shop.setRest(true);
    }
  });

  test('live mode keeps the SSRF rules of webhook endpoints: https only, no private or loopback hosts', async () => {
    const key = await shop.createKey();
    const input = { consumerKey: key.consumer_key, consumerSecret: key.consumer_secret };
    expect((await attempt({ ...input, url: woo.url }, 'live')).message).toContain('https');
    expect((await attempt({ ...input, url: 'https://127.0.0.1:8443' }, 'live')).message).toContain('not a public address');
    expect((await attempt({ ...input, url: 'https://169.254.169.254/' }, 'live')).message).toContain('not a public address');
  });
});

describe('WooCommerce REST authentication over plain HTTP', () => {
  test('OAuth 1.0a HMAC-SHA256 and HMAC-SHA1 pass; a reused nonce, a stale timestamp, a wrong secret and query-string keys do not', async () => {
    const key = await shop.createKey();
    const client = wooClient(woo.url, { consumerKey: key.consumer_key, consumerSecret: key.consumer_secret });
    await expect(client.webhooks()).resolves.toBeInstanceOf(Array);

    const url = `${woo.url}/wp-json/wc/v3/webhooks`;
    const signed = (o: { nonce?: string; timestamp?: number; secret?: string; algorithm?: 'HMAC-SHA1' | 'HMAC-SHA256' } = {}) => {
      const p = signOAuth({
        method: 'GET',
        url,
        query: [],
        consumerKey: key.consumer_key,
        consumerSecret: o.secret ?? key.consumer_secret,
        timestamp: o.timestamp ?? Math.floor(Date.now() / 1000),
        nonce: o.nonce,
        algorithm: o.algorithm,
      });
      return fetch(`${url}?${new URLSearchParams(p)}`).then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: string; message?: string } }));
    };
    expect((await signed({ algorithm: 'HMAC-SHA1' })).status).toBe(200);
    const first = await signed({ nonce: 'fixed-nonce-1' });
    expect(first.status).toBe(200);
    expect((await signed({ nonce: 'fixed-nonce-1' })).body.message).toBe('Invalid nonce - nonce has already been used.');
    expect((await signed({ timestamp: Math.floor(Date.now() / 1000) - 16 * 60 })).body.message).toBe('Invalid timestamp.');
    const wrong = await signed({ secret: 'cs_wrong' });
    expect(wrong).toMatchObject({
      status: 401,
      body: { code: 'woocommerce_rest_authentication_error', message: 'Invalid signature - provided signature does not match.' },
    });
    // over HTTP WooCommerce ignores Basic and query keys: the request runs anonymously
    const query = await fetch(`${url}?consumer_key=${key.consumer_key}&consumer_secret=${key.consumer_secret}`);
    expect(query.status).toBe(401);
    expect(((await query.json()) as { code: string }).code).toBe('woocommerce_rest_cannot_view');
    // a client whose clock is 20 minutes off is refused
    const skewed = wooClient(
      woo.url,
      { consumerKey: key.consumer_key, consumerSecret: key.consumer_secret },
      { now: () => new Date(Date.now() + 20 * 60_000) },
    );
    await expect(skewed.webhooks()).rejects.toMatchObject({ code: 'store_keys_invalid' });
  });
});
