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
import { jobKey } from '@/server/jobs/registry';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';

const t = useTestDatabase();
let web: RunningProcess;
let api: ReturnType<typeof apiClient>;
let accountId = '';
let liveKey = '';
const fixtures = path.resolve(process.cwd(), '../shared/domain/fixtures');

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
  const acct = await createTestAccount(t.db());
  accountId = acct.accountId;
  liveKey = acct.liveKey;
  api = apiClient(web.url, acct.testKey);
}, 60_000);
afterAll(() => web?.stop());

const documentCount = async () => (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from documents where account_id = ${accountId}`))[0]!.n;

describe('POST /v1/invoices', () => {
  test('answers 201 with the pending invoice of spec 2.1 and enqueues document_prepare in the same transaction', async () => {
    const order = paidOrder();
    await t.db().execute(sql`delete from graphile_worker._private_jobs`); // an earlier request's lane job
    const res = await api.post('/v1/invoices', { order });
    expect(res.status).toBe(201);
    expect(res.headers.get('request-id')).toMatch(/^req_/);
    const inv = res.body;
    expect(Object.keys(inv).sort()).toEqual(
      [
        'id',
        'object',
        'livemode',
        'status',
        'order',
        'number',
        'ksef_number',
        'ksef_environment',
        'issue_date',
        'currency',
        'total_gross',
        'buyer_nip',
        'pdf_url',
        'last_error',
        'offline',
        'created',
        'updated',
        'corrections',
      ].sort(),
    );
    expect(inv).toMatchObject({
      object: 'invoice',
      livemode: false,
      status: 'pending',
      order: { external_id: order.external_id, number: null },
      number: null,
      ksef_number: null,
      ksef_environment: 'test',
      issue_date: null,
      currency: null,
      total_gross: null,
      buyer_nip: null,
      pdf_url: null,
      last_error: null,
      corrections: [],
    });
    expect(inv.id).toMatch(/^inv_[0-9A-Za-z]{22}$/);
    expect(Math.abs(inv.created - Date.now() / 1000)).toBeLessThan(60);
    const jobs = await t
      .db()
      .execute<{ n: number }>(
        sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'document_prepare' and key = ${jobKey('document_prepare', { accountId, mode: 'test' })}`,
      );
    expect(jobs[0]!.n).toBe(1);
    const stored = await t
      .db()
      .execute<{ input: { lines: { unitPriceGrosze: number; grossGrosze: number }[] } }>(sql`select input from documents where id = ${inv.id}`);
    expect(stored[0]!.input.lines[0]).toMatchObject({ unitPriceGrosze: 4999, grossGrosze: 9498 });
  });

  test('a known external_id answers 200 with the existing invoice', async () => {
    const order = paidOrder();
    const first = await api.post('/v1/invoices', { order });
    const again = await api.post('/v1/invoices', { order: { ...order, number: 'changed' } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  test('50 concurrent identical requests make one document', async () => {
    const order = paidOrder();
    const before = await documentCount();
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/v1/invoices', { order })));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(49);
    expect(await documentCount()).toBe(before + 1);
  });

  test('an Idempotency-Key replay answers 200 with the same body', async () => {
    const order = paidOrder();
    const first = await api.post('/v1/invoices', { order }, { 'Idempotency-Key': `idem-${order.external_id}` });
    const replay = await api.post('/v1/invoices', { order }, { 'Idempotency-Key': `idem-${order.external_id}` });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const reused = await api.post('/v1/invoices', { order: paidOrder() }, { 'Idempotency-Key': `idem-${order.external_id}` });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  const base = paidOrder();
  const line0 = base.lines[0]!;
  test.each([
    ['neither order form', {}, 400, 'parameter_missing', 'order'],
    ['both order forms', { order: base, shopplatform_order: {} }, 400, 'parameter_invalid', 'order'],
    ['missing external_id', { order: { ...base, external_id: undefined } }, 400, 'parameter_missing', 'order.external_id'],
    ['bad external_id characters', { order: { ...base, external_id: 'a b' } }, 400, 'parameter_invalid', 'order.external_id'],
    ['external_id over 64', { order: { ...base, external_id: 'x'.repeat(65) } }, 400, 'parameter_invalid', 'order.external_id'],
    ['missing NIP', { order: { ...base, buyer: { ...base.buyer, nip: undefined } } }, 400, 'buyer_nip_missing', 'order.buyer.nip'],
    ['bad NIP checksum', { order: { ...base, buyer: { ...base.buyer, nip: '5260250275' } } }, 400, 'buyer_nip_invalid', 'order.buyer.nip'],
    ['not paid', { order: { ...base, paid_at: undefined } }, 400, 'order_not_paid', 'order.paid_at'],
    ['paid_at not ISO', { order: { ...base, paid_at: '20.11.2026' } }, 400, 'parameter_invalid', 'order.paid_at'],
    ['unsupported currency', { order: { ...base, currency: 'XYZ' } }, 400, 'currency_not_supported', 'order.currency'],
    ['missing VAT rate', { order: { ...base, lines: [{ ...line0, vat_rate: undefined }] } }, 400, 'vat_rate_missing', 'order.lines[0].vat_rate'],
    ['unsupported VAT rate', { order: { ...base, lines: [line0, { ...line0, vat_rate: 'zw' }] } }, 400, 'vat_rate_unsupported', 'order.lines[1].vat_rate'],
    ['no lines', { order: { ...base, lines: [] } }, 400, 'parameter_invalid', 'order.lines'],
    ['1001 lines', { order: { ...base, lines: Array.from({ length: 1001 }, () => line0) } }, 400, 'parameter_invalid', 'order.lines'],
    ['name over 512', { order: { ...base, lines: [{ ...line0, name: 'n'.repeat(513) }] } }, 400, 'parameter_invalid', 'order.lines[0].name'],
    ['amount as a JSON number', { order: { ...base, lines: [{ ...line0, unit_price: 49.99 }] } }, 400, 'parameter_invalid', 'order.lines[0].unit_price'],
    ['three decimals', { order: { ...base, lines: [{ ...line0, unit_price: '49.999' }] } }, 400, 'parameter_invalid', 'order.lines[0].unit_price'],
    ['fractional quantity', { order: { ...base, lines: [{ ...line0, quantity: 1.5 }] } }, 400, 'parameter_invalid', 'order.lines[0].quantity'],
    ['zero quantity', { order: { ...base, lines: [{ ...line0, quantity: 0 }] } }, 400, 'parameter_invalid', 'order.lines[0].quantity'],
    ['discount above the line', { order: { ...base, lines: [{ ...line0, discount: '100.00' }] } }, 422, 'order_unprocessable', 'order.lines[0].discount'],
    ['unknown payment method', { order: { ...base, payment_method: 'barter' } }, 400, 'parameter_invalid', 'order.payment_method'],
    [
      'total not above zero',
      { order: { ...base, lines: [{ ...line0, unit_price: '0.00', discount: undefined }], shipping: [] } },
      422,
      'order_unprocessable',
      'order.lines',
    ],
    ['shipping without rate', { order: { ...base, shipping: [{ name: 'Kurier', price: '10.00' }] } }, 400, 'vat_rate_missing', 'order.shipping[0].vat_rate'],
    // a 0.6 MB body whose FA(3) takes 3 MB: every & of the names is 5 bytes escaped (KSeF refuses over 1,000,000)
    [
      'FA(3) over KSeF size limit',
      { order: { ...base, lines: Array.from({ length: 1000 }, () => ({ ...line0, name: '&'.repeat(512) })) } },
      422,
      'order_unprocessable',
      'order.lines',
    ],
  ])('%s: %i %s at %s, nothing stored', async (_name, body, status, code, param) => {
    const before = await documentCount();
    const res = await api.post('/v1/invoices', body);
    expect(res.status).toBe(status);
    expect(res.body.error).toMatchObject({ code, param });
    expect(res.body.error.message).toEqual(expect.any(String));
    expect(await documentCount()).toBe(before);
  });

  test('a cancelled shopplatform order gives order_cancelled', async () => {
    const wc = JSON.parse(readFileSync(path.join(fixtures, 'wc-order-4817-pln.json'), 'utf8'));
    const res = await api.post('/v1/invoices', { shopplatform_order: { ...wc, id: 999_001, status: 'cancelled' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('order_cancelled');
  });

  test('the WooCommerce fixture order becomes an invoice with its number as external_id', async () => {
    const wc = JSON.parse(readFileSync(path.join(fixtures, 'wc-order-4817-pln.json'), 'utf8'));
    const res = await api.post('/v1/invoices', { shopplatform_order: wc });
    expect(res.status).toBe(201);
    expect(res.body.order.external_id).toBe(String(wc.id));
  });
});

describe('GET /v1/invoices and /v1/invoices/{id}', () => {
  test('250 invoices page through newest first without gaps or duplicates', async () => {
    const other = await createTestAccount(t.db());
    const client = apiClient(web.url, other.testKey);
    const created: string[] = [];
    // made through the intake service: 250 API calls would pass the key's 100 requests a minute
    for (let i = 0; i < 250; i++) {
      const { document } = await createInvoiceDocument(t.db(), other.testScope, parseOrderInput(paidOrder({ external_id: `p-${i}` })));
      created.push(document.id);
    }
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await client.get(`/v1/invoices?limit=100${after ? `&starting_after=${after}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'list', url: '/v1/invoices' });
      seen.push(...res.body.data.map((d: { id: string }) => d.id));
      pages++;
      if (!res.body.has_more) break;
      after = res.body.data.at(-1).id;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(250);
    expect(new Set(seen).size).toBe(250);
    expect(new Set(seen)).toEqual(new Set(created));
    expect(seen).toEqual([...created].reverse());
  }, 60_000);

  test('default limit is 10; limit outside 1-100 is parameter_invalid', async () => {
    expect((await api.get('/v1/invoices')).body.data.length).toBeLessThanOrEqual(10);
    for (const bad of ['0', '101', 'ten']) {
      const res = await api.get(`/v1/invoices?limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    }
  });

  test('starting_after unknown or of another account gives 404 resource_missing', async () => {
    const other = await createTestAccount(t.db());
    const foreign = await apiClient(web.url, other.testKey).post('/v1/invoices', { order: paidOrder() });
    for (const id of ['inv_doesnotexist', foreign.body.id]) {
      const res = await api.get(`/v1/invoices?starting_after=${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    }
  });

  test('external_id filters to that order', async () => {
    const order = paidOrder();
    const inv = await api.post('/v1/invoices', { order });
    const res = await api.get(`/v1/invoices?external_id=${order.external_id}`);
    expect(res.body.data.map((d: { id: string }) => d.id)).toEqual([inv.body.id]);
  });

  test('retrieve: own invoice 200; another account or mode 404; malformed id 400', async () => {
    const inv = await api.post('/v1/invoices', { order: paidOrder() });
    expect((await api.get(`/v1/invoices/${inv.body.id}`)).body).toEqual(inv.body);
    const other = await createTestAccount(t.db());
    const foreign = await apiClient(web.url, other.testKey).get(`/v1/invoices/${inv.body.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('resource_missing');
    await enableLive(t.db(), accountId);
    const otherMode = await apiClient(web.url, liveKey).get(`/v1/invoices/${inv.body.id}`);
    expect(otherMode.status).toBe(404);
    expect(otherMode.body.error.code).toBe('resource_missing');
    const bad = await api.get('/v1/invoices/xyz_123');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'id' });
  });
});
