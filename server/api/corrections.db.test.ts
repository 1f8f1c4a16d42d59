import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { startWeb, type RunningProcess } from '@/test/web';
import { enableLive } from '@/server/accounts/account-settings';
import type { Scope } from '@/server/db/scope';
import { jobKey } from '@/server/jobs/registry';

const t = useTestDatabase();
let web: RunningProcess;
let api: ReturnType<typeof apiClient>;
let live: ReturnType<typeof apiClient>;
let scope: Scope;
const fixtures = path.resolve(process.cwd(), '../shared/domain/fixtures');

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
  const acct = await createTestAccount(t.db());
  scope = acct.testScope;
  await enableLive(t.db(), acct.accountId);
  api = apiClient(web.url, acct.testKey);
  live = apiClient(web.url, acct.liveKey);
}, 60_000);
afterAll(() => web?.stop());

const newInvoice = async () => (await api.post('/v1/invoices', { order: paidOrder() })).body;
const refund = (overrides: Record<string, unknown> = {}) => ({
  external_id: `refund-${Math.random().toString(36).slice(2)}`,
  reason: 'Zwrot towaru',
  lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
  ...overrides,
});

describe('POST /v1/invoices/{id}/corrections', () => {
  test('201 with a pending correction of spec 2.2; the invoice lists it; its job is enqueued', async () => {
    const inv = await newInvoice();
    await t.db().execute(sql`delete from graphile_worker._private_jobs`); // the invoice's own prepare job
    const r = refund();
    const res = await api.post(`/v1/invoices/${inv.id}/corrections`, { refund: r });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'correction',
      status: 'pending',
      invoice: inv.id,
      refund: { external_id: r.external_id },
      order: { external_id: inv.order.external_id, number: null },
      number: null,
      total_gross: null,
      last_error: null,
    });
    expect(res.body.id).toMatch(/^cor_/);
    expect(res.body).not.toHaveProperty('corrections');
    const again = await api.get(`/v1/invoices/${inv.id}`);
    expect(again.body.corrections.map((c: { id: string }) => c.id)).toEqual([res.body.id]);
    expect((await api.get(`/v1/invoices/${res.body.id}`)).body).toEqual(res.body);
    const jobs = await t.db().execute(sql`select 1 from graphile_worker.jobs where key = ${jobKey('document_prepare', scope)}`);
    expect(jobs).toHaveLength(1);
  });

  test('one correction per refund external_id, also under concurrency', async () => {
    const inv = await newInvoice();
    const r = refund();
    const answers = await Promise.all(Array.from({ length: 10 }, () => api.post(`/v1/invoices/${inv.id}/corrections`, { refund: r })));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
  });

  test('returned quantities beyond what earlier corrections left give 422 order_unprocessable', async () => {
    const inv = await newInvoice();
    const first = await api.post(`/v1/invoices/${inv.id}/corrections`, { refund: refund() });
    const second = await api.post(`/v1/invoices/${inv.id}/corrections`, { refund: refund() });
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await api.post(`/v1/invoices/${inv.id}/corrections`, { refund: refund() });
    expect(third.status).toBe(422);
    expect(third.body.error.code).toBe('order_unprocessable');
    // the invoice lists what was made, oldest first, and nothing of the refused one
    const listed = (await api.get(`/v1/invoices/${inv.id}`)).body.corrections.map((c: { id: string }) => c.id);
    expect(listed).toEqual([first.body.id, second.body.id]);
  });

  test('refunded shipping alone is a correction', async () => {
    const inv = await newInvoice();
    const res = await api.post(`/v1/invoices/${inv.id}/corrections`, { refund: refund({ lines: undefined, shipping: { price: '15.00' } }) });
    expect(res.status).toBe(201);
  });

  test.each([
    ['amount-only refund', { refund: { external_id: 'r-amount', reason: 'rabat' } }, 422, 'order_unprocessable'],
    ['no refund at all', {}, 400, 'parameter_missing'],
    ['refund without external_id', { refund: { lines: refund().lines } }, 400, 'parameter_missing'],
    ['returned quantity as text', { refund: refund({ lines: [{ ...refund().lines[0], quantity: 'one' }] }) }, 400, 'parameter_invalid'],
  ])('%s: %i %s', async (_n, body, status, code) => {
    const inv = await newInvoice();
    const res = await api.post(`/v1/invoices/${inv.id}/corrections`, body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect((await api.get(`/v1/invoices/${inv.id}`)).body.corrections).toEqual([]);
  });

  test('a cor_ id gives 400 correction_requires_invoice', async () => {
    const inv = await newInvoice();
    const cor = (await api.post(`/v1/invoices/${inv.id}/corrections`, { refund: refund() })).body;
    const res = await api.post(`/v1/invoices/${cor.id}/corrections`, { refund: refund() });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'correction_requires_invoice', param: 'id' });
  });

  test('an invoice of the other mode gives 400 livemode_mismatch; unknown 404', async () => {
    const inv = await newInvoice();
    const res = await live.post(`/v1/invoices/${inv.id}/corrections`, { refund: refund() });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'livemode_mismatch', param: 'id' });
    const missing = await api.post('/v1/invoices/inv_unknown000/corrections', { refund: refund() });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('resource_missing');
  });

  test('the WooCommerce refund fixture becomes a correction of the fixture order', async () => {
    const wcOrder = JSON.parse(readFileSync(path.join(fixtures, 'wc-order-4817-pln.json'), 'utf8'));
    const wcRefund = JSON.parse(readFileSync(path.join(fixtures, 'wc-refund-4822-of-order-4817.json'), 'utf8'));
    const inv = await api.post('/v1/invoices', { shopplatform_order: wcOrder });
    const res = await api.post(`/v1/invoices/${inv.body.id}/corrections`, { shopplatform_order: wcOrder, shopplatform_refund: wcRefund });
    expect(res.status).toBe(201);
    expect(res.body.refund.external_id).toBe(String(wcRefund.id));
    const onlyRefund = await api.post(`/v1/invoices/${inv.body.id}/corrections`, { shopplatform_refund: wcRefund });
    expect(onlyRefund.status).toBe(400);
    expect(onlyRefund.body.error).toMatchObject({ code: 'parameter_missing', param: 'shopplatform_order' });
  });
});
