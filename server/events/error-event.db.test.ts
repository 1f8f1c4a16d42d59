import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import * as eventsRoute from '@/app/v1/events/route';
import * as endpointsRoute from '@/app/v1/webhook_endpoints/route';
import { checkWebhookSignature } from '@/sdk/src/index';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useWorker } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { documentError } from '@/server/documents/document-errors';
import { withLockedDocument } from '@/server/documents/locked';
import { transition } from '@/server/documents/transition';
import { setRouteDb } from '@/server/http/route';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';

/**
 * Invariant 10 over real HTTP: a document that ends in `error` has its event in GET /v1/events and a signed
 * webhook at every endpoint subscribed to it (or to `*`). The /v1 route files are served as they are, by a plain
 * node:http server (no Next.js build needed); only the webhook task runs, so nothing else moves the documents.
 */
const t = useTestDatabase();
useWorker(t.url, { tasks: 'webhook_deliver' });

type Hit = { path: string; signature: string; body: string };
const hits: Hit[] = [];
let receiver: http.Server;
let api: http.Server;
let receiverBase = '';
let apiBase = '';

type RouteFile = Pick<typeof eventsRoute, 'GET' | 'POST'>;
const ROUTES: Record<string, RouteFile> = { '/v1/events': eventsRoute, '/v1/webhook_endpoints': endpointsRoute };

const listen = async (server: http.Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  setRouteDb(() => t.db());
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', signature: String(req.headers['ksef-signature']), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
    });
  });
  api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const route = ROUTES[url.pathname];
      const handler = req.method === 'POST' ? route?.POST : route?.GET;
      if (!handler) return res.writeHead(404).end();
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await handler(new Request(url, { method: req.method, headers: req.headers as Record<string, string>, body }), {
        params: Promise.resolve({}),
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers)).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  receiverBase = await listen(receiver);
  apiBase = await listen(api);
});
afterAll(async () => {
  for (const server of [receiver, api]) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

/** What the pipeline does when a document cannot be built (prepare, send): the state machine's move to error. */
const endInError = (id: string, message: string) =>
  withLockedDocument(t.db(), id, ['pending'], (tx, doc) =>
    transition(tx, doc, 'error', { lastError: documentError('invoice_build_failed', message) }).then(() => {}),
  );

test('an invoice and a correction ending in error: invoice.error and correction.error, listed and delivered signed', async () => {
  const acct = await createTestAccount(t.db());
  const client = apiClient(apiBase, acct.testKey);
  const subscribe = async (path: string, enabled_events: string[]) => {
    const res = await client.post('/v1/webhook_endpoints', { url: `${receiverBase}${path}`, enabled_events });
    expect(res.status).toBe(201);
    expect(res.body.enabled_events).toEqual(enabled_events);
    return res.body.secret as string;
  };
  const secrets: Record<string, string> = {
    '/errors-only': await subscribe('/errors-only', ['invoice.error', 'correction.error']),
    '/everything': await subscribe('/everything', ['*']),
  };
  await subscribe('/rejections', ['invoice.rejected']);

  const { document: invoice } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder()));
  const refund = parseRefundInput({
    external_id: 'r-1',
    lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
  });
  const { document: correction } = await createCorrectionDocument(t.db(), acct.testScope, invoice.id, refund);
  await endInError(invoice.id, 'NBP has no table A rate for EUR before 2026-01-02.');
  await endInError(correction.id, 'The correction could not be built.');

  // invariant 3: each event's delivery jobs committed with it, one per subscribed endpoint
  const events = await client.get('/v1/events');
  expect(events.status).toBe(200);
  expect(events.body.data.map((e: { type: string }) => e.type)).toEqual(['correction.error', 'invoice.error']);
  const [corEvent, invEvent] = events.body.data;
  expect(invEvent.data.object).toMatchObject({ id: invoice.id, status: 'error', last_error: { code: 'invoice_build_failed', type: 'invoice_error' } });
  expect(corEvent.data.object).toMatchObject({ id: correction.id, status: 'error' });
  expect(Object.keys(invEvent).sort()).toEqual(['created', 'data', 'id', 'livemode', 'object', 'type']);
  expect((await client.get('/v1/events?type=invoice.error')).body.data.map((e: { id: string }) => e.id)).toEqual([invEvent.id]);

  await waitFor(async () => hits.length >= 4, 15_000);
  expect(hits.map((h) => h.path).sort()).toEqual(['/errors-only', '/errors-only', '/everything', '/everything']);
  for (const hit of hits) {
    expect(checkWebhookSignature(hit.body, hit.signature, secrets[hit.path]!)).toMatchObject({ ok: true });
    expect([invEvent.id, corEvent.id]).toContain(JSON.parse(hit.body).id);
  }
  const [rejections] = await t
    .db()
    .execute<{ n: number }>(
      sql`select count(*)::int as n from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where e.url like '%/rejections'`,
    );
  expect(rejections!.n).toBe(0);
});
