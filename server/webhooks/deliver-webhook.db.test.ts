import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Logger, run, type Runner } from 'graphile-worker';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { checkWebhookSignature } from '@/sdk/src/index';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { waitFor } from '@/test/web';
import { resetConfig } from '@/server/config';
import { createTaskList, selectTasks } from '@/worker/task-list';
import type { Tx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { recordDocumentEvent as recordEvent } from '@/server/documents/record-document-event';
import type { EventType } from '@/server/facts/event-types';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createWebhookEndpoint } from './create-webhook-endpoint';
import { deliverWebhook } from './deliver-webhook';
import { disableWebhookEndpoint } from './disable-webhook-endpoint';
import { listDeliveries } from './list-deliveries';
import { resendEvent } from './resend-event';
import { RETRY_AFTER_S } from './retry-schedule';

/** The whole retry schedule (236,160 s) in about 4.7 s. */
const TIME_SCALE = 0.00002;

type Hit = { path: string; at: number; headers: http.IncomingHttpHeaders; body: string };

const t = useTestDatabase();
const hits: Hit[] = [];
let receiver: http.Server;
let base = '';
let runner: Runner;
let scope: Scope;
/** Paths that answer 500 this many more times before 200. */
const failuresLeft = new Map<string, number>();

beforeAll(async () => {
  // The task reads the time scale from the environment, as in the worker process.
  process.env.WEBHOOK_RETRY_TIME_SCALE = String(TIME_SCALE);
  resetConfig();
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      hits.push({ path, at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const left = path.startsWith('/down') ? Infinity : (failuresLeft.get(path) ?? 0);
      if (left > 0) {
        failuresLeft.set(path, left - 1);
        return res.writeHead(500).end('receiver broken');
      }
      res.writeHead(path.startsWith('/nocontent') ? 204 : 200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  scope = (await createTestAccount(t.db())).testScope;
  runner = await run({
    connectionString: t.url(),
    taskList: selectTasks(createTaskList(t.db()), 'webhook_deliver'),
    concurrency: 4,
    pollInterval: 50,
    noHandleSignals: true,
    logger: new Logger(() => () => {}),
  });
});
afterAll(async () => {
  await runner?.stop();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const hitsTo = (path: string) => hits.filter((h) => h.path === path);

async function endpoint(path: string, enabledEvents: string[], s: Scope = scope) {
  return createWebhookEndpoint(t.db(), s, { url: `${base}${path}`, enabled_events: enabledEvents as never });
}

async function invoiceEvent(type: EventType = 'invoice.accepted', s: Scope = scope, beforeCommit?: (tx: Tx) => Promise<void>) {
  const { document } = await createInvoiceDocument(t.db(), s, parseOrderInput(paidOrder()));
  return t.db().transaction(async (tx) => {
    const eventId = await recordEvent(tx, document, type, []);
    await beforeCommit?.(tx);
    return { eventId, documentId: document.id };
  });
}

const storedBody = async (eventId: string) => (await t.db().execute<{ body: string }>(sql`select body from events where id = ${eventId}`))[0]!.body;
const pendingJobs = async (eventId: string) =>
  (await t.db().execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where key like ${`%${eventId}%`}`))[0]!.n;
const deliveryRows = (eventId: string) =>
  t
    .db()
    .execute<{ endpoint_id: string; attempt: number; delivered: string; status_code: number | null; next_attempt_at: Date | null; error: string | null }>(
      sql`select endpoint_id, attempt, delivered, status_code, next_attempt_at, error from webhook_deliveries where event_id = ${eventId} order by id`,
    );

describe('webhook_deliver through a running worker', () => {
  test('subscribed endpoints get the stored event, signed with their own secret; unsubscribed and deleted ones get nothing', async () => {
    const exact = await endpoint('/a', ['invoice.accepted']);
    const all = await endpoint('/nocontent-b', ['*']);
    const other = await endpoint('/c', ['correction.accepted', 'invoice.rejected']);
    const deleted = await endpoint('/d', ['invoice.accepted']);
    await disableWebhookEndpoint(t.db(), scope, deleted.id);
    const { eventId } = await invoiceEvent('invoice.accepted');
    await waitFor(async () => (await pendingJobs(eventId)) === 0 && hitsTo('/a').length + hitsTo('/nocontent-b').length === 2, 10_000);

    const body = await storedBody(eventId);
    for (const [path, ep] of [
      ['/a', exact],
      ['/nocontent-b', all],
    ] as const) {
      const [hit, ...more] = hitsTo(path);
      expect(more).toHaveLength(0);
      expect(hit!.body).toBe(body);
      expect(hit!.headers['ksef-event-id']).toBe(eventId);
      expect(checkWebhookSignature(hit!.body, String(hit!.headers['ksef-signature']), ep.secret)).toMatchObject({ ok: true });
    }
    expect(checkWebhookSignature(hitsTo('/a')[0]!.body, String(hitsTo('/a')[0]!.headers['ksef-signature']), all.secret).ok).toBe(false);
    expect(JSON.parse(body)).toMatchObject({
      id: eventId,
      object: 'event',
      type: 'invoice.accepted',
      livemode: false,
      data: { object: { object: 'invoice' } },
    });
    expect(hitsTo('/c')).toHaveLength(0);
    expect(hitsTo('/d')).toHaveLength(0);
    const rows = await deliveryRows(eventId);
    expect(rows.map((r) => [r.endpoint_id, r.attempt, r.delivered, r.status_code]).sort()).toEqual(
      [
        [exact.id, 1, 'yes', 200],
        [all.id, 1, 'yes', 204],
      ].sort(),
    );
    expect(rows.every((r) => r.next_attempt_at === null && r.error === null)).toBe(true);
    for (const ep of [exact, all]) await disableWebhookEndpoint(t.db(), scope, ep.id);
    await disableWebhookEndpoint(t.db(), scope, other.id);
  });

  test('a job for an endpoint disabled after the event was recorded is dropped without a delivery', async () => {
    const ep = await endpoint('/late', ['invoice.skipped']);
    let queued = 0;
    const { eventId } = await invoiceEvent('invoice.skipped', scope, async (tx) => {
      queued = (await tx.execute(sql`select 1 from graphile_worker.jobs where key like ${`deliver:%:${ep.id}:1`}`)).length;
      await disableWebhookEndpoint(t.db(), scope, ep.id); // another connection: commits before the event does
    });
    expect(queued).toBe(1);
    await waitFor(async () => (await pendingJobs(eventId)) === 0, 10_000);
    expect(hitsTo('/late')).toHaveLength(0);
    expect(await deliveryRows(eventId)).toHaveLength(0);
  });

  test('a receiver that keeps failing is retried eight times on the spec schedule, then delivery stops', { timeout: 30_000 }, async () => {
    const ep = await endpoint('/down', ['invoice.rejected']);
    const { eventId } = await invoiceEvent('invoice.rejected');
    await waitFor(
      async () => hitsTo('/down').length >= 9 && (await pendingJobs(eventId)) === 0,
      25_000,
      () => `${hitsTo('/down').length} attempts`,
    );
    await new Promise((r) => setTimeout(r, 300)); // a tenth attempt would be due within milliseconds
    const got = hitsTo('/down');
    expect(got).toHaveLength(9);
    const body = await storedBody(eventId);
    for (const hit of got) {
      expect(hit.headers['ksef-event-id']).toBe(eventId);
      expect(hit.body).toBe(body);
      expect(checkWebhookSignature(hit.body, String(hit.headers['ksef-signature']), ep.secret).ok).toBe(true);
    }
    for (let i = 0; i < RETRY_AFTER_S.length; i++) {
      const gap = got[i + 1]!.at - got[i]!.at;
      const wait = RETRY_AFTER_S[i]! * 1000 * TIME_SCALE;
      expect(gap, `gap before retry ${i + 1}`).toBeGreaterThanOrEqual(Math.floor(wait) - 2);
      expect(gap, `gap before retry ${i + 1}`).toBeLessThan(wait + 1_000);
    }
    const rows = await deliveryRows(eventId);
    expect(rows.map((r) => r.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rows.every((r) => r.delivered === 'no' && r.status_code === 500 && r.error === 'answered 500')).toBe(true);
    expect(rows.slice(0, 8).every((r) => r.next_attempt_at !== null)).toBe(true);
    expect(rows[8]!.next_attempt_at).toBeNull();
    await disableWebhookEndpoint(t.db(), scope, ep.id);
  });

  test('a receiver that recovers gets the same event again, same KSeF-Event-Id and body, until it answers 2xx', async () => {
    failuresLeft.set('/flaky', 2);
    const ep = await endpoint('/flaky', ['correction.skipped']);
    const { eventId, documentId } = await invoiceEvent('correction.skipped');
    await waitFor(async () => hitsTo('/flaky').length === 3 && (await pendingJobs(eventId)) === 0, 10_000);
    const got = hitsTo('/flaky');
    expect(new Set(got.map((h) => h.headers['ksef-event-id']))).toEqual(new Set([eventId]));
    expect(new Set(got.map((h) => h.body)).size).toBe(1);
    expect((await deliveryRows(eventId)).map((r) => [r.attempt, r.delivered])).toEqual([
      [1, 'no'],
      [2, 'no'],
      [3, 'yes'],
    ]);

    const byEndpoint = await listDeliveries(t.db(), scope, { endpointId: ep.id, limit: 2 });
    expect(byEndpoint.hasMore).toBe(true);
    expect(byEndpoint.data.map((d) => [d.attempt, d.delivered, d.documentId, d.eventType])).toEqual([
      [3, true, documentId, 'correction.skipped'],
      [2, false, documentId, 'correction.skipped'],
    ]);
    const next = await listDeliveries(t.db(), scope, { endpointId: ep.id, limit: 2, beforeId: byEndpoint.data[1]!.id });
    expect(next).toMatchObject({ hasMore: false, data: [{ attempt: 1, statusCode: 500, responseBody: null }] }); // a receiver on 127.0.0.1: its answer is not kept
    expect((await listDeliveries(t.db(), scope, { documentId, limit: 10 })).data).toHaveLength(3);
    const stranger = (await createTestAccount(t.db())).testScope;
    expect((await listDeliveries(t.db(), stranger, { endpointId: ep.id, limit: 10 })).data).toHaveLength(0);
    expect((await listDeliveries(t.db(), { ...scope, mode: 'live' }, { documentId, limit: 10 })).data).toHaveLength(0);

    const { attempt } = await resendEvent(t.db(), scope, eventId, ep.id);
    expect(attempt).toBe(4);
    await waitFor(async () => hitsTo('/flaky').length === 4, 10_000);
    expect(hitsTo('/flaky')[3]).toMatchObject({ body: got[0]!.body, headers: { 'ksef-event-id': eventId } });
    await expect(resendEvent(t.db(), stranger, eventId, ep.id)).rejects.toMatchObject({ code: 'resource_missing' });
    await disableWebhookEndpoint(t.db(), scope, ep.id);
    await expect(resendEvent(t.db(), scope, eventId, ep.id)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'endpoint' });
  });

  test('a manual resend that fails is logged once and not retried', async () => {
    const ep = await endpoint('/down-resend', ['invoice.accepted']);
    const { eventId } = await invoiceEvent('invoice.accepted');
    await waitFor(async () => (await deliveryRows(eventId)).length >= 1, 10_000);
    await disableWebhookEndpoint(t.db(), scope, ep.id); // stops the automatic retries
    const again = await endpoint('/down-resend2', ['*']);
    const { attempt } = await resendEvent(t.db(), scope, eventId, again.id);
    expect(attempt).toBe(1);
    await waitFor(async () => (await deliveryRows(eventId)).some((r) => r.endpoint_id === again.id), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    const rows = (await deliveryRows(eventId)).filter((r) => r.endpoint_id === again.id);
    expect(rows).toMatchObject([{ attempt: 1, delivered: 'no', next_attempt_at: null }]);
    expect(await pendingJobs(eventId)).toBe(0);
    await disableWebhookEndpoint(t.db(), scope, again.id);
  });
});

describe('deliverWebhook with the production schedule', () => {
  test('a failed attempt schedules the next one as a new job at the real spec delay; the ninth schedules nothing', async () => {
    const { eventId } = await invoiceEvent('invoice.accepted'); // no endpoint subscribed yet: no job from the event
    const ep = await endpoint('/down-real', ['invoice.accepted']);
    const job = (attempt: number) => ({ eventId, endpointId: ep.id, attempt });
    const nextJob = async (attempt: number) =>
      (
        await t
          .db()
          .execute<{ run_at: Date; payload: unknown }>(
            sql`select run_at, payload from graphile_worker._private_jobs where key = ${`deliver:${eventId}:${ep.id}:${attempt}`}`,
          )
      )[0];

    const expected = [
      [1, 60],
      [2, 300],
      [3, 1_800],
      [4, 7_200],
      [5, 18_000],
      [6, 36_000],
      [7, 86_400],
      [8, 86_400],
    ] as const;
    for (const [attempt, seconds] of expected) {
      const before = Date.now();
      const r = await deliverWebhook(t.db(), job(attempt));
      expect(r).toMatchObject({ outcome: 'failed', statusCode: 500 });
      const queued = await nextJob(attempt + 1);
      expect(queued?.payload).toEqual(job(attempt + 1));
      const delay = new Date(queued!.run_at).getTime() - before;
      expect(delay).toBeGreaterThanOrEqual(seconds * 1000);
      expect(delay).toBeLessThan(seconds * 1000 + 5_000);
    }
    const last = await deliverWebhook(t.db(), job(9));
    expect(last).toMatchObject({ outcome: 'failed', nextAttemptAt: null });
    expect(await nextJob(10)).toBeUndefined();
    await disableWebhookEndpoint(t.db(), scope, ep.id);
  });

  test('live mode refuses at delivery time a host that now resolves to a private address, and never connects', async () => {
    const live: Scope = { accountId: scope.accountId, mode: 'live' };
    const { eventId } = await invoiceEvent('invoice.accepted', live);
    const port = new URL(base).port;
    // At creation the name pointed at a public address; by delivery it resolves to loopback (DNS rebinding).
    const ep = await createWebhookEndpoint(t.db(), live, { url: `https://localhost:${port}/rebound`, enabled_events: ['*'] }, async () => ['93.184.216.34']);
    const r = await deliverWebhook(t.db(), { eventId, endpointId: ep.id, attempt: 1 }, { retryTimeScale: 1 });
    expect(r).toMatchObject({ outcome: 'failed', statusCode: null });
    expect(r.outcome !== 'dropped' && r.error).toMatch(/^refused: localhost resolves to/);
    expect(hitsTo('/rebound')).toHaveLength(0);
    expect((await deliveryRows(eventId))[0]).toMatchObject({ endpoint_id: ep.id, delivered: 'no' });
    await disableWebhookEndpoint(t.db(), live, ep.id);
  });
});
