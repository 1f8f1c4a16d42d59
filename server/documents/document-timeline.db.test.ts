import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSmtpSink, type SmtpSink } from '@/emulators/smtp/server';
import { wooControl, type WooControl } from '@/emulators/woocommerce/control-client';
import { startWooEmulator, type WooEmulator } from '@/emulators/woocommerce/server';
import { randomNip } from '@/emulators/ksef/testing';
import { resetConfig } from '@/server/config';
import { documents } from '@/server/db/schema';
import { TASK_NAMES } from '@/server/jobs/registry';
import { closeMailTransports } from '@/server/mail/send-mail';
import { connectStore } from '@/server/stores/connect';
import { syncStore } from '@/server/stores/sync';
import { createWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { useKsefEmulator, useWorker } from '@/test/pipeline';
import { waitFor } from '@/test/web';
import { listDocumentTimeline, type TimelineStep } from './document-timeline';
import { getDocument } from './get-document';

/**
 * A store order through the whole pipeline with every step's counterpart over the network: KSeF, the shop (the
 * write-back), the buyer's mail server and a webhook receiver that refuses the first attempt.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();
// store_delivery would process the shop's own webhooks, which have no web server here: the order comes by sync
useWorker(t.url, { tasks: TASK_NAMES.filter((n) => n !== 'store_delivery').join(',') });
let woo: WooEmulator;
let shop: WooControl;
let sink: SmtpSink;
let receiver: http.Server;
let receiverUrl = '';
let refusals = 1;

beforeAll(async () => {
  sink = await startSmtpSink();
  woo = await startWooEmulator({ port: 0 });
  shop = wooControl(woo.url);
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(refusals-- > 0 ? 500 : 200).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  process.env.SMTP_URL = sink.url;
  process.env.PUBLIC_BASE_URL = 'http://127.0.0.1:9';
  process.env.WEBHOOK_RETRY_TIME_SCALE = '0.00002'; // the first retry after about a millisecond
  resetConfig();
});
afterAll(async () => {
  await closeMailTransports();
  await Promise.all([sink?.close(), woo?.close(), new Promise((r) => receiver?.close(r))]);
});

const describeStep = (s: TimelineStep): string => {
  switch (s.kind) {
    case 'status':
      return s.numbered ? `status:${s.to}:numbered` : `status:${s.to}`;
    case 'mail':
      return `mail:${s.outcome}`;
    case 'webhook':
      return `webhook:${s.eventType}:${s.attempt}:${s.delivered ? 'delivered' : `refused ${s.statusCode}`}`;
    default:
      return s.kind;
  }
};

test('a store order: numbered, sent, accepted, PDF rendered, e-mail sent, written back, each webhook attempt, in order', async () => {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  const scope = acct.testScope;
  await ksef.connect(t.db(), scope, nip);
  await createWebhookEndpoint(t.db(), scope, { url: receiverUrl, enabled_events: ['invoice.accepted'] });
  const key = await shop.createKey();
  const { store } = await connectStore(t.db(), scope, { url: woo.url, consumerKey: key.consumer_key, consumerSecret: key.consumer_secret });
  const order = await shop.createOrder({ nip: '386-161-02-27', paid: true });
  await syncStore(t.db(), store);
  const [row] = await t
    .db()
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.accountId, scope.accountId), eq(documents.orderExternalId, String(order.id))));

  const steps = async (withDeliveries = true) => listDocumentTimeline(t.db(), await getDocument(t.db(), scope, row!.id), { withDeliveries });
  const settled = (s: TimelineStep[]) =>
    s.some((x) => x.kind === 'mail' && x.outcome === 'sent') && s.some((x) => x.kind === 'store_meta') && s.some((x) => x.kind === 'webhook' && x.delivered);
  let last: TimelineStep[] = [];
  await waitFor(
    async () => settled((last = await steps())),
    30_000,
    () => `timeline stayed ${last.map(describeStep).join(', ')}`,
  );
  const doc = await getDocument(t.db(), scope, row!.id);
  const timeline = await steps();

  // oldest first
  const times = timeline.map((s) => s.at.getTime());
  expect(times).toEqual([...times].sort((a, b) => a - b));
  // the status changes come first, the step into queued carrying the number it took
  expect(timeline.slice(0, 4).map(describeStep)).toEqual(['status:pending', 'status:queued:numbered', 'status:sending', 'status:accepted']);
  expect(timeline[1]).toMatchObject({ kind: 'status', numbered: doc.number });
  expect(doc.number).toMatch(/^FV\//);
  // then what acceptance set off, each after what it needs
  const after = timeline.slice(4).map(describeStep);
  expect([...after].sort()).toEqual(
    ['pdf', 'mail:sent', 'store_note', 'store_meta', 'webhook:invoice.accepted:1:refused 500', 'webhook:invoice.accepted:2:delivered'].sort(),
  );
  expect(after.indexOf('pdf')).toBeLessThan(after.indexOf('mail:sent'));
  expect(after.indexOf('store_note')).toBeLessThan(after.indexOf('store_meta'));
  expect(after.indexOf('webhook:invoice.accepted:1:refused 500')).toBeLessThan(after.indexOf('webhook:invoice.accepted:2:delivered'));
  expect(timeline.find((s) => s.kind === 'webhook')).toMatchObject({ url: receiverUrl, statusCode: 500 });

  // a member who may not manage sees every step but the webhook attempts, which name the owner's endpoints
  expect((await steps(false)).map(describeStep)).toEqual(timeline.filter((s) => s.kind !== 'webhook').map(describeStep));
});
