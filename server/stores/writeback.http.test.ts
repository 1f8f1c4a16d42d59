import { and, eq, sql } from 'drizzle-orm';
import { Logger, runOnce } from 'graphile-worker';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { wooControl, type WooControl } from '@/emulators/woocommerce/control-client';
import { startWooEmulator, type WooEmulator } from '@/emulators/woocommerce/server';
import { randomNip } from '@/emulators/ksef/testing';
import { resetConfig } from '@/server/config';
import { documents, storeDocuments } from '@/server/db/schema';
import { TASK_NAMES } from '@/server/jobs/registry';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { createTaskList, selectTasks } from '@/worker/task-list';
import { listAttention } from '@/server/attention/find-attention';
import type { Scope } from '@/server/db/scope';
import { connectStore } from './connect';
import { getStoreStatus } from './store-status';
import { syncStore } from './sync';

/**
 * The pipeline runs in the background without the write-back, so each test decides what the store has become
 * (order deleted, key revoked) before the one write-back attempt, which then runs alone (runOnce): a job that
 * failed would be left waiting for its retry, one that gave up is gone.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url, { tasks: TASK_NAMES.filter((n) => n !== 'store_writeback' && n !== 'store_delivery').join(',') });
let woo: WooEmulator;
let shop: WooControl;

beforeAll(async () => {
  // no web server: deliveries fail, orders arrive through reconciliation
  process.env.PUBLIC_BASE_URL = 'http://127.0.0.1:9';
  resetConfig();
  woo = await startWooEmulator({ port: 0 });
  shop = wooControl(woo.url);
});
afterAll(() => woo?.close());

/** A connected store with one paid B2B order invoiced and accepted; its write-back is queued, not run yet. */
async function acceptedStoreInvoice() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  const key = await shop.createKey();
  const { store } = await connectStore(t.db(), acct.testScope, { url: woo.url, consumerKey: key.consumer_key, consumerSecret: key.consumer_secret });
  const order = await shop.createOrder({ nip: '386-161-02-27', paid: true });
  await syncStore(t.db(), store);
  const [doc] = await t
    .db()
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.accountId, acct.accountId), eq(documents.orderExternalId, String(order.id))));
  const invoice = await waitForStatus(t.db(), doc!.id, ['accepted', 'rejected', 'error']);
  expect(invoice.status).toBe('accepted');
  await waitFor(
    async () => (await writebackJob(invoice.id)) !== undefined,
    10_000,
    () => `no write-back job for ${invoice.id}`,
  );
  return { scope: acct.testScope, key, orderId: order.id, invoice };
}

const writebackJob = async (documentId: string) =>
  (await t.db().execute<{ attempts: number }>(sql`select attempts from graphile_worker.jobs where key = ${`store_writeback:${documentId}`}`))[0];

/** One pass of the write-back task over every due job, as a worker would run it. */
const runWriteback = () =>
  runOnce({ connectionString: t.url(), taskList: selectTasks(createTaskList(t.db()), 'store_writeback'), logger: new Logger(() => () => {}) });

/** The dashboard's attention list names the store (store_failing) while a write-back has given up. */
const storeOnAttentionList = async (scope: Scope) => (await listAttention(t.db(), scope, new Date())).some((e) => e.kind === 'store_failing');

const link = async (documentId: string) => (await t.db().select().from(storeDocuments).where(eq(storeDocuments.documentId, documentId)))[0]!;

test('an order deleted from the store: the write-back gives up after one attempt, and the store page says why', async () => {
  const { scope, orderId, invoice } = await acceptedStoreInvoice();
  expect(await storeOnAttentionList(scope)).toBe(false);
  await shop.deleteOrder(orderId);
  await runWriteback();
  await expect.poll(() => writebackJob(invoice.id)).toBeUndefined();
  expect(await link(invoice.id)).toMatchObject({ attempts: 1, gaveUpReason: 'order_gone', noteAddedAt: null });
  expect((await link(invoice.id)).lastError).toContain('404 woocommerce_rest_order_invalid_id');
  expect(await storeOnAttentionList(scope)).toBe(true);
  const page = await getStoreStatus(t.db(), scope);
  expect(page?.writebackGiveUps).toEqual([
    expect.objectContaining({ documentId: invoice.id, number: invoice.number, orderId, reason: 'order_gone', at: expect.any(Date) }),
  ]);
  // the document itself stays accepted: the write-back never touches it
  expect((await waitForStatus(t.db(), invoice.id, ['accepted'])).status).toBe('accepted');
}, 60_000);

test('a key revoked in the store: the write-back gives up after one attempt with the store’s 401', async () => {
  const { scope, key, invoice } = await acceptedStoreInvoice();
  await shop.revokeKey(key.consumer_key);
  await runWriteback();
  await expect.poll(() => writebackJob(invoice.id)).toBeUndefined();
  expect(await link(invoice.id)).toMatchObject({ attempts: 1, gaveUpReason: 'keys_refused' });
  expect((await link(invoice.id)).lastError).toContain('Consumer key is invalid.');
  expect((await getStoreStatus(t.db(), scope))?.writebackGiveUps.map((g) => g.reason)).toEqual(['keys_refused']);
}, 60_000);

test('a store that is only unreachable for now is retried, not given up', async () => {
  const { scope, invoice } = await acceptedStoreInvoice();
  await shop.setRest(false);
  try {
    await runWriteback();
  } finally {
    await shop.setRest(true);
  }
  expect((await writebackJob(invoice.id))?.attempts).toBe(1);
  expect(await link(invoice.id)).toMatchObject({ attempts: 1, gaveUpAt: null });
  expect(await storeOnAttentionList(scope)).toBe(false);
}, 60_000);
