import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { checkWebhookSignature } from '@/sdk/src/index';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { listAttention } from '@/server/attention/find-attention';
import type { Scope } from '@/server/db/scope';
import { events } from '@/server/db/schema';
import { listEvents } from '@/server/events/list-events';
import { createWebhookEndpoint } from './create-webhook-endpoint';
import { disableWebhookEndpoint } from './disable-webhook-endpoint';
import { listDeliveries } from './list-deliveries';
import { sendTestEvent } from './send-test-event';

type Hit = { path: string; headers: http.IncomingHttpHeaders; body: string };

const t = useTestDatabase();
const hits: Hit[] = [];
let receiver: http.Server;
let base = '';
let scope: Scope;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(req.url?.startsWith('/down') ? 500 : 200).end(req.url?.startsWith('/down') ? 'receiver broken' : 'ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  scope = (await createTestAccount(t.db())).testScope;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

const endpoint = (path: string) => createWebhookEndpoint(t.db(), scope, { url: `${base}${path}`, enabled_events: ['invoice.accepted'] });
const jobs = async () =>
  (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where task_identifier = 'webhook_deliver'`))[0]!.n;

test('a signed webhook_endpoint.test reaches the endpoint once, is logged as a test and is no stored event', async () => {
  const ep = await endpoint('/ok');
  const sent = await sendTestEvent(t.db(), scope, ep.id, { allowPrivate: true });
  expect(sent).toMatchObject({ delivered: true, statusCode: 200 });
  const got = hits.filter((h) => h.path === '/ok');
  expect(got).toHaveLength(1);
  // the endpoint's own secret and signature scheme: a receiver's usual check passes
  expect(checkWebhookSignature(got[0]!.body, String(got[0]!.headers['ksef-signature']), ep.secret)).toMatchObject({ ok: true });
  expect(got[0]!.headers['ksef-event-id']).toBe(sent.eventId);
  expect(JSON.parse(got[0]!.body)).toMatchObject({
    id: sent.eventId,
    object: 'event',
    type: 'webhook_endpoint.test',
    livemode: false,
    data: { object: { id: ep.id, object: 'webhook_endpoint', url: `${base}/ok` } },
  });
  const log = await listDeliveries(t.db(), scope, { endpointId: ep.id, limit: 10 });
  expect(log.data).toMatchObject([
    { eventId: sent.eventId, eventType: 'webhook_endpoint.test', documentId: null, test: true, delivered: true, attempt: 1, statusCode: 200 },
  ]);
  expect((await t.db().select({ n: count() }).from(events).where(eq(events.accountId, scope.accountId)))[0]!.n).toBe(0);
  expect((await listEvents(t.db(), scope, { limit: 10 })).data).toEqual([]);
});

test('a failed test is logged, never retried and raises no attention', async () => {
  const ep = await endpoint('/down');
  const before = await jobs();
  const sent = await sendTestEvent(t.db(), scope, ep.id, { allowPrivate: true });
  expect(sent).toMatchObject({ delivered: false, statusCode: 500 });
  expect(await jobs()).toBe(before);
  expect((await listDeliveries(t.db(), scope, { endpointId: ep.id, limit: 10 })).data).toMatchObject([{ test: true, delivered: false, nextAttemptAt: null }]);
  const attention = await listAttention(t.db(), scope, new Date());
  expect(attention.map((a) => a.kind)).not.toContain('webhooks_failing');
});

test('only an enabled endpoint of the scope', async () => {
  const ep = await endpoint('/ok-2');
  const other = (await createTestAccount(t.db())).testScope;
  await expect(sendTestEvent(t.db(), other, ep.id, { allowPrivate: true })).rejects.toMatchObject({ code: 'resource_missing' });
  await expect(sendTestEvent(t.db(), { ...scope, mode: 'live' }, ep.id, { allowPrivate: true })).rejects.toMatchObject({ code: 'resource_missing' });
  await disableWebhookEndpoint(t.db(), scope, ep.id);
  await expect(sendTestEvent(t.db(), scope, ep.id, { allowPrivate: true })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'endpoint' });
  expect(hits.filter((h) => h.path === '/ok-2')).toHaveLength(0);
  expect((await listDeliveries(t.db(), other, { endpointId: ep.id, limit: 10 })).data).toEqual([]);
});
