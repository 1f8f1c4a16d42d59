import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { POST as hook } from '@/app/hooks/woocommerce/[store]/route';
import { randomNip } from '@/emulators/ksef/testing';
import { wooControl, type WooControl } from '@/emulators/woocommerce/control-client';
import { startWooEmulator, type WooEmulator } from '@/emulators/woocommerce/server';
import { resetConfig } from '@/server/config';
import { documents, storeOrders } from '@/server/db/schema';
import { warsawDate } from '@/server/calendar/dates';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { connectStore } from './connect';
import { getStoreStatus } from './store-status';
import { syncStore } from './sync';

/**
 * Where a connection's invoicing starts (issue 35): orders placed before it are neither invoiced by a delivery nor
 * by reconciliation, nor are their refunds corrected; each is recorded as skipped for the store page. The shop is
 * the WooCommerce emulator; its deliveries reach the hook's route handler over HTTP (no Next.js build needed).
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);
let woo: WooEmulator;
let shop: WooControl;
let hookServer: Server;

const BUYER_NIP = '386-161-02-27';
const MINUTE = 60_000;

/** POST /hooks/woocommerce/{store} served by the route's own handler. */
async function serveHook(): Promise<string> {
  hookServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const store = decodeURIComponent(url.pathname.replace(/^\/hooks\/woocommerce\//, ''));
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(url, { method: req.method, headers, body: req.method === 'POST' ? Buffer.concat(chunks) : undefined });
      void hook(request, { params: Promise.resolve({ store }) })
        .then(async (answer) => res.writeHead(answer.status, Object.fromEntries(answer.headers.entries())).end(Buffer.from(await answer.arrayBuffer())))
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => hookServer.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(hookServer.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  process.env.DATABASE_URL = t.url(); // the route's own pool
  process.env.PUBLIC_BASE_URL = await serveHook();
  resetConfig();
  woo = await startWooEmulator({ port: 0 });
  shop = wooControl(woo.url);
});
afterAll(async () => {
  await woo?.close();
  await new Promise((resolve) => hookServer?.close(resolve));
});

async function account() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  return acct;
}

async function connect(acct: Awaited<ReturnType<typeof account>>, since?: string) {
  const key = await shop.createKey();
  const { store } = await connectStore(t.db(), acct.testScope, { url: woo.url, consumerKey: key.consumer_key, consumerSecret: key.consumer_secret }, { since });
  return store;
}

const invoices = (accountId: string, orderId: number) =>
  t
    .db()
    .select({ id: documents.id, kind: documents.kind })
    .from(documents)
    .where(and(eq(documents.accountId, accountId), eq(documents.orderExternalId, String(orderId))));

const outcome = async (storeId: string, kind: 'order' | 'refund', remoteId: number) =>
  (
    await t
      .db()
      .select()
      .from(storeOrders)
      .where(and(eq(storeOrders.storeId, storeId), eq(storeOrders.kind, kind), eq(storeOrders.remoteId, remoteId)))
  )[0];

async function invoiceOf(accountId: string, orderId: number) {
  await waitFor(
    async () => (await invoices(accountId, orderId)).length > 0,
    20_000,
    () => `no invoice for order ${orderId}`,
  );
  return waitForStatus(t.db(), (await invoices(accountId, orderId))[0]!.id, ['accepted', 'rejected', 'error', 'skipped']);
}

describe('a store connected with the default start invoices only orders placed after connecting', () => {
  test('an order placed before connecting: not by its delivery, not by reconciliation, nor its refund; the store page says why', async () => {
    const acct = await account();
    const before = await shop.createOrder({ nip: BUYER_NIP, placedAt: new Date(Date.now() - 7 * MINUTE).toISOString() });
    const storeId = await connect(acct);

    await shop.pay(before.id); // delivered as order.updated to our hook
    await shop.idle();
    await expect.poll(async () => (await outcome(storeId, 'order', before.id))?.reason, { timeout: 15_000 }).toBe('placed_before_invoice_from');

    const line = (await shop.order(before.id)).line_items[0]!;
    const refund = await shop.refund(before.id, { items: [{ line: line.id, quantity: 1 }], reason: 'Zwrot' });
    await shop.idle();
    await expect.poll(async () => (await outcome(storeId, 'refund', refund.id))?.reason, { timeout: 15_000 }).toBe('placed_before_invoice_from');

    const result = await syncStore(t.db(), storeId); // lists the order: modified after connecting
    expect(result.orders).toBeGreaterThanOrEqual(1);
    expect(result.invoiced).toBe(0);
    expect(await invoices(acct.accountId, before.id)).toEqual([]);

    const status = (await getStoreStatus(t.db(), acct.testScope))!;
    expect(status.skippedByReason).toContainEqual({ reason: 'placed_before_invoice_from', count: 2 });
    const skipped = status.skipped.find((s) => s.kind === 'order' && s.id === before.id)!;
    expect(skipped.message).toContain(status.invoiceFrom.toISOString());

    // an order placed after connecting is invoiced as usual
    const after = await shop.createOrder({ nip: BUYER_NIP, paid: true });
    expect((await invoiceOf(acct.accountId, after.id)).status).toBe('accepted');
  });
});

describe('a store connected with a start date picks up older orders', () => {
  test('an order placed two days ago is invoiced by the reconciliation queued at connect; one placed before the date is not', async () => {
    const acct = await account();
    const now = Date.now();
    const older = await shop.createOrder({ nip: BUYER_NIP, paid: true, placedAt: new Date(now - 2 * 24 * 60 * MINUTE).toISOString() });
    const tooOld = await shop.createOrder({ nip: BUYER_NIP, placedAt: new Date(now - 5 * 24 * 60 * MINUTE).toISOString() });
    const since = warsawDate(new Date(now - 3 * 24 * 60 * MINUTE).toISOString());
    const storeId = await connect(acct, since);
    const status = (await getStoreStatus(t.db(), acct.testScope))!;
    expect(warsawDate(status.invoiceFrom.toISOString())).toBe(since);

    expect((await invoiceOf(acct.accountId, older.id)).status).toBe('accepted');

    await shop.pay(tooOld.id);
    await shop.idle();
    await expect.poll(async () => (await outcome(storeId, 'order', tooOld.id))?.reason, { timeout: 15_000 }).toBe('placed_before_invoice_from');
    expect(await invoices(acct.accountId, tooOld.id)).toEqual([]);
  });

  test('a start date in the future or not a date is refused before anything is stored', async () => {
    const acct = await account();
    const tomorrow = warsawDate(new Date(Date.now() + 2 * 24 * 60 * MINUTE).toISOString());
    await expect(connect(acct, tomorrow)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'since' });
    await expect(connect(acct, '2026-02-30')).rejects.toMatchObject({ code: 'parameter_invalid', param: 'since' });
    expect(await getStoreStatus(t.db(), acct.testScope)).toBeNull();
  });
});
