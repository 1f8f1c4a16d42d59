import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { config } from '@/server/config';
import { authenticate } from '@/server/ksef/auth';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { KsefUnavailableError } from '@/server/ksef/http';
import { getInvoiceStatus, openOnlineSession, sendInvoice } from '@/server/ksef/online-session';
import { createContractChecker } from './contract';
import { createEmulatorControl, type EmulatorControl } from './control-client';
import type { FaultRule } from './faults';
import { startKsefEmulator, type KsefEmulator } from './server';
import { randomNip, sampleInvoice } from './testing';

let emulator: KsefEmulator;
let control: EmulatorControl;
let client: KsefClient;
const contract = createContractChecker(config().KSEF_OPENAPI_PATH);

beforeAll(async () => {
  emulator = await startKsefEmulator({ processingDelayMs: 0, limits: 'off' });
  control = createEmulatorControl(emulator.url);
  client = createKsefClient({ baseUrl: emulator.url, timeoutMs: 500, fetch: contract.wrap(emulator.url) });
});
afterEach(async () => {
  await control.clearFaults();
  await control.setLimits('off');
});
afterAll(() => emulator.close());

const challenge = () => client.http.json<{ challenge: string }>({ method: 'POST', path: '/auth/challenge' });
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );

test.each<[string, FaultRule, (e: KsefUnavailableError) => void]>([
  ['5xx', { endpoint: 'authChallenge', kind: 'error5xx', status: 503 }, (e) => expect(e.status).toBe(503)],
  ['HTML 502', { endpoint: '/auth/challenge', kind: 'html502' }, (e) => expect(e.status).toBe(502)],
  ['HTML 503', { endpoint: '/auth/*', kind: 'html503' }, (e) => expect(e.status).toBe(503)],
  ['connection reset', { endpoint: 'authChallenge', kind: 'reset' }, (e) => expect(e.message).toMatch(/unreachable/)],
  ['time-out', { endpoint: 'authChallenge', kind: 'timeout' }, (e) => expect(e.message).toMatch(/within 500 ms/)],
  ['429 storm', { endpoint: 'authChallenge', kind: 'rate429', retryAfterSeconds: 7 }, (e) => expect(e.retryAfterSeconds).toBe(7)],
])('%s becomes KsefUnavailableError', async (_name, rule, check) => {
  await control.setFaults([rule]);
  const err = await failure(challenge());
  expect(err).toBeInstanceOf(KsefUnavailableError);
  check(err as KsefUnavailableError);
  await control.clearFaults();
  expect((await challenge()).challenge).toHaveLength(36);
});

test('latency delays the answer', async () => {
  await control.setFaults([{ endpoint: 'authChallenge', kind: 'latency', latencyMs: 200 }]);
  const t = Date.now();
  await challenge();
  expect(Date.now() - t).toBeGreaterThanOrEqual(190);
});

test('probabilities are deterministic for a seed and `times` caps a rule', async () => {
  const pattern = async (seed: number) => {
    await control.setFaults([{ endpoint: 'authChallenge', kind: 'error5xx', probability: 0.5 }], seed);
    const out: boolean[] = [];
    for (let i = 0; i < 16; i++) out.push((await failure(challenge())) === undefined);
    return out;
  };
  const a = await pattern(42);
  expect(await pattern(42)).toEqual(a);
  expect(a.filter(Boolean).length).toBeGreaterThan(2);
  expect(a.filter((x) => !x).length).toBeGreaterThan(2);

  await control.setFaults([{ endpoint: 'authChallenge', kind: 'error5xx', times: 2 }]);
  expect(await failure(challenge())).toBeInstanceOf(KsefUnavailableError);
  expect(await failure(challenge())).toBeInstanceOf(KsefUnavailableError);
  expect(await failure(challenge())).toBeUndefined();
});

test('forced rejection and processing stuck in 150', async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token });
  const session = await openOnlineSession(client, accessToken);
  await control.setFaults([{ endpoint: 'sendInvoice', kind: 'reject', rejectCode: 550, times: 1 }]);
  const rejected = await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'R/1' }));
  expect((await getInvoiceStatus(client, accessToken, session.referenceNumber, rejected.invoiceReferenceNumber)).status.code).toBe(550);

  await control.setFaults([{ endpoint: 'sendInvoice', kind: 'stuck', stuckSeconds: 0.4 }]);
  const stuck = await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'R/2' }));
  expect((await getInvoiceStatus(client, accessToken, session.referenceNumber, stuck.invoiceReferenceNumber)).status.code).toBe(150);
  await new Promise((r) => setTimeout(r, 500));
  expect((await getInvoiceStatus(client, accessToken, session.referenceNumber, stuck.invoiceReferenceNumber)).status.code).toBe(200);
  const counters = await control.counters();
  expect(counters.faults).toMatchObject({ reject: 1, stuck: 1 });
  expect(counters.invoices.byNumber).toMatchObject({ 'R/1': 1, 'R/2': 1 });
});

test('production limits: the 11th session opening in a second gets 429 with Retry-After and the documented body', async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token });
  await control.setLimits('prod');
  const results = await Promise.all(Array.from({ length: 11 }, () => failure(openOnlineSession(client, accessToken))));
  const refused = results.filter((r) => r instanceof KsefUnavailableError) as KsefUnavailableError[];
  expect(refused).toHaveLength(1);
  expect(refused[0]?.status).toBe(429);
  expect(refused[0]?.retryAfterSeconds).toBeGreaterThanOrEqual(1);

  // Another context from the same IP has its own counter.
  const other = randomNip();
  const credentials = await control.createCredentials(other);
  const second = await authenticate(client, { kind: 'token', nip: other, token: credentials.token });
  expect((await openOnlineSession(client, second.accessToken)).referenceNumber).toHaveLength(36);

  const raw = await fetch(`${emulator.url}/sessions/online`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(raw.status).toBe(429);
  expect(await raw.json()).toMatchObject({ status: { code: 429, description: 'Too Many Requests' } });
  expect((await control.counters()).rateLimited).toBeGreaterThanOrEqual(2);
});

test('every response matched the official OpenAPI', () => {
  expect(contract.violations()).toEqual([]);
});
