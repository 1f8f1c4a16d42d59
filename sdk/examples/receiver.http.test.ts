import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { signatureHeader } from '@/server/webhooks/signature';
import { createWebhookReceiver } from './receiver';

const SECRET = 'whsec_receiver_example';
const received: { id: string; type: string }[] = [];
const server = createWebhookReceiver(SECRET, (event) => received.push(event));
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/ksef`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (body: string, signature: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'ksef-signature': signature }, body });

test('the README receiver accepts a signed delivery and refuses a forged or replayed one', async () => {
  const body = JSON.stringify({ id: 'evt_readme', type: 'invoice.accepted', data: { object: { number: 'FV/2026/06/0042', buyer: 'Kreska' } } });
  expect((await post(body, signatureHeader(SECRET, body))).status).toBe(200);
  expect(received).toEqual([expect.objectContaining({ id: 'evt_readme', type: 'invoice.accepted' })]);

  expect((await post(body.replace('0042', '0043'), signatureHeader(SECRET, body))).status).toBe(400);
  expect((await post(body, signatureHeader('whsec_attacker', body))).status).toBe(400);
  expect((await post(body, signatureHeader(SECRET, body, Math.floor(Date.now() / 1000) - 3600))).status).toBe(400);
  expect(received).toHaveLength(1);
});
