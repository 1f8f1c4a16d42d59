import { expect, test } from 'vitest';
import { consumeLimit, createLimitsState } from './limits';

test('production invoiceSend: 10 per second, then 429 until the oldest request leaves the window', () => {
  const s = createLimitsState('prod');
  const t0 = 1_000_000;
  for (let i = 0; i < 10; i++) expect(consumeLimit(s, 'invoiceSend', 'invoiceSend', '5265877635', '10.0.0.1', t0 + i).ok).toBe(true);
  const refused = consumeLimit(s, 'invoiceSend', 'invoiceSend', '5265877635', '10.0.0.1', t0 + 10);
  expect(refused).toMatchObject({ ok: false, retryAfterSeconds: 1 });
  expect(consumeLimit(s, 'invoiceSend', 'invoiceSend', '5265877635', '10.0.0.2', t0 + 10).ok).toBe(true); // another IP
  expect(consumeLimit(s, 'invoiceSend', 'invoiceSend', '5265877635', '10.0.0.1', t0 + 1_000).ok).toBe(true);
});

test('the minute window: the 31st send within a minute waits for the first to leave it', () => {
  const s = createLimitsState('prod');
  const t0 = 5_000_000;
  for (let i = 0; i < 30; i++) expect(consumeLimit(s, 'invoiceSend', 'invoiceSend', 'c', 'ip', t0 + i * 1_500).ok).toBe(true);
  const refused = consumeLimit(s, 'invoiceSend', 'invoiceSend', 'c', 'ip', t0 + 45_000);
  expect(refused).toMatchObject({ ok: false, retryAfterSeconds: 15 });
  expect(consumeLimit(s, 'invoiceSend', 'invoiceSend', 'c', 'ip', t0 + 60_000).ok).toBe(true);
});

test('test mode is ten times production and off never refuses', () => {
  const test10 = createLimitsState('test');
  for (let i = 0; i < 100; i++) expect(consumeLimit(test10, 'invoiceSend', 'invoiceSend', 'c', 'ip', 1).ok).toBe(true);
  expect(consumeLimit(test10, 'invoiceSend', 'invoiceSend', 'c', 'ip', 1).ok).toBe(false);
  const off = createLimitsState('off');
  for (let i = 0; i < 1_000; i++) expect(consumeLimit(off, 'invoiceSend', 'invoiceSend', 'c', 'ip', 1).ok).toBe(true);
});
