import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { startWeb, type RunningProcess } from '@/test/web';
import { enableLive } from '@/server/accounts/account-settings';
import type { Scope } from '@/server/db/scope';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { recordDocumentEvent as recordEvent } from '@/server/documents/record-document-event';
import type { EventType } from '@/server/facts/event-types';
import { parseOrderInput } from '@/server/orders/order-schema';

const t = useTestDatabase();
let web: RunningProcess;

beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
}, 60_000);
afterAll(() => web?.stop());

async function newAccount() {
  const acct = await createTestAccount(t.db());
  await enableLive(t.db(), acct.accountId);
  return {
    scope: acct.testScope,
    liveScope: { accountId: acct.accountId, mode: 'live' } as Scope,
    api: apiClient(web.url, acct.testKey),
    live: apiClient(web.url, acct.liveKey),
  };
}

async function recordInvoiceEvent(scope: Scope, type: EventType) {
  const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()));
  const id = await t.db().transaction((tx) => recordEvent(tx, document, type, []));
  return { id, documentId: document.id };
}

const ids = (body: { data: { id: string }[] }) => body.data.map((e) => e.id);

describe('GET /v1/events', () => {
  test('lists the events of the key account and mode newest first, paged with limit and starting_after', async () => {
    const { scope, liveScope, api, live } = await newAccount();
    const made: string[] = [];
    for (const type of ['invoice.accepted', 'invoice.rejected', 'invoice.skipped', 'correction.accepted'] as const)
      made.push((await recordInvoiceEvent(scope, type)).id);
    const liveEvent = await recordInvoiceEvent(liveScope, 'invoice.accepted');
    const stranger = await newAccount();
    await recordInvoiceEvent(stranger.scope, 'invoice.accepted');

    const all = await api.get('/v1/events');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ object: 'list', url: '/v1/events', has_more: false });
    expect(ids(all.body)).toEqual([...made].reverse());
    expect(all.body.data[0]).toMatchObject({ id: made[3], object: 'event', type: 'correction.accepted', livemode: false });
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['created', 'data', 'id', 'livemode', 'object', 'type']);

    const page1 = await api.get('/v1/events?limit=3');
    expect(page1.body.has_more).toBe(true);
    expect(ids(page1.body)).toEqual([made[3], made[2], made[1]]);
    const page2 = await api.get(`/v1/events?limit=3&starting_after=${made[1]}`);
    expect(page2.body).toMatchObject({ has_more: false });
    expect(ids(page2.body)).toEqual([made[0]]);

    expect(ids((await live.get('/v1/events')).body)).toEqual([liveEvent.id]);
    expect((await live.get('/v1/events')).body.data[0].livemode).toBe(true);
    expect(ids((await stranger.api.get('/v1/events')).body)).toHaveLength(1);
  });

  test('filters by type', async () => {
    const { scope, api } = await newAccount();
    const a = await recordInvoiceEvent(scope, 'invoice.rejected');
    await recordInvoiceEvent(scope, 'invoice.accepted');
    const b = await recordInvoiceEvent(scope, 'invoice.rejected');
    const res = await api.get('/v1/events?type=invoice.rejected');
    expect(ids(res.body)).toEqual([b.id, a.id]);
    expect((await api.get('/v1/events?type=correction.skipped')).body.data).toEqual([]);
    const bad = await api.get('/v1/events?type=invoice.paid');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'type' });
  });

  test('data.object is the document as it was at the event, while GET /v1/invoices shows it now', async () => {
    const { scope, api } = await newAccount();
    const { id, documentId } = await recordInvoiceEvent(scope, 'invoice.skipped');
    const refund = {
      external_id: `refund-${id}`,
      reason: 'Zwrot',
      lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
    };
    const correction = await api.post(`/v1/invoices/${documentId}/corrections`, { refund });
    expect(correction.status).toBe(201);
    const now = (await api.get(`/v1/invoices/${documentId}`)).body;
    expect(now.corrections.map((c: { id: string }) => c.id)).toEqual([correction.body.id]);
    const [event] = (await api.get('/v1/events')).body.data;
    expect(event.data.object).toMatchObject({ id: documentId, object: 'invoice', corrections: [] });
    expect(event.data.object).toEqual({ ...now, corrections: [], updated: event.data.object.updated });
  });

  test('rejects a bad limit and an unknown starting_after', async () => {
    const { api } = await newAccount();
    for (const limit of ['0', '101', 'ten']) {
      const res = await api.get(`/v1/events?limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
    }
    const res = await api.get('/v1/events?starting_after=evt_nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', param: 'starting_after' });
    expect((await api.post('/v1/events', {})).status).toBe(405);
  });
});
