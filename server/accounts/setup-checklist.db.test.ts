import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import type { Scope } from '@/server/db/scope';
import { createWebhookEndpoint } from '@/server/webhooks/create-webhook-endpoint';
import { disableWebhookEndpoint } from '@/server/webhooks/disable-webhook-endpoint';
import { sendTestEvent } from '@/server/webhooks/send-test-event';
import { getSetupChecklist } from './setup-checklist';

const t = useTestDatabase();
let receiver: http.Server;
let base = '';

beforeAll(async () => {
  // `/down…` answers 500, anything else 200
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url?.startsWith('/down') ? 500 : 200).end());
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => receiver.close(() => r())));

const webhookDone = async (scope: Scope) => (await getSetupChecklist(t.db(), scope)).find((s) => s.step === 'webhook')!.done;
const endpoint = (scope: Scope, path: string) => createWebhookEndpoint(t.db(), scope, { url: `${base}${path}`, enabled_events: ['*'] });

test('the webhook step is done only once an enabled endpoint of the scope took a delivery', async () => {
  const acct = await createTestAccount(t.db());
  const scope = acct.testScope;
  expect(await webhookDone(scope)).toBe(false);

  const down = await endpoint(scope, '/down');
  expect(await webhookDone(scope)).toBe(false); // added, never reached
  expect((await sendTestEvent(t.db(), scope, down.id)).delivered).toBe(false);
  expect((await sendTestEvent(t.db(), scope, down.id)).delivered).toBe(false);
  expect(await webhookDone(scope)).toBe(false); // every delivery to it failed

  // another account's and the other mode's successful deliveries do not count
  const other = await createTestAccount(t.db());
  expect((await sendTestEvent(t.db(), other.testScope, (await endpoint(other.testScope, '/up')).id)).delivered).toBe(true);
  expect(await webhookDone(other.testScope)).toBe(true);
  expect(await webhookDone(scope)).toBe(false);

  const up = await endpoint(scope, '/up');
  expect(await webhookDone(scope)).toBe(false);
  expect((await sendTestEvent(t.db(), scope, up.id)).delivered).toBe(true);
  expect(await webhookDone(scope)).toBe(true);
  expect(await webhookDone({ accountId: acct.accountId, mode: 'live' })).toBe(false);

  // the endpoint that took it deleted: the step is open again until another one is reached
  await disableWebhookEndpoint(t.db(), scope, up.id);
  expect(await webhookDone(scope)).toBe(false);
});
