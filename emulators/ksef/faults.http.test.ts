import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { config } from '@/server/config';
import { authenticate } from '@/server/ksef/auth';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { KsefApiError, KsefUnavailableError } from '@/server/ksef/http';
import { findInvoicesByNumber } from '@/server/ksef/invoice-metadata';
import { getInvoiceStatus, openOnlineSession, sendInvoice } from '@/server/ksef/online-session';
import { createContractChecker } from './contract';
import { createEmulatorControl, type EmulatorControl } from './control-client';
import type { FaultRule } from './faults';
import { startKsefEmulator, type KsefEmulator } from './server';
import { randomNip, sampleInvoice } from './testing';

let emulator: KsefEmulator;
let control: EmulatorControl;
let client: KsefClient;
/** For the time-out cases only: a loaded machine may take longer than 500 ms to encrypt and check an invoice. */
let quick: KsefClient;
const contract = createContractChecker(config().KSEF_OPENAPI_PATH);

beforeAll(async () => {
  emulator = await startKsefEmulator({ processingDelayMs: 0, limits: 'off' });
  control = createEmulatorControl(emulator.url);
  client = createKsefClient({ baseUrl: emulator.url, timeoutMs: 10_000, fetch: contract.wrap(emulator.url) });
  quick = createKsefClient({ baseUrl: emulator.url, timeoutMs: 500, fetch: contract.wrap(emulator.url) });
});
afterEach(async () => {
  await control.clearFaults();
  await control.setLimits('off');
});
afterAll(() => emulator.close());

const challenge = () => quick.http.json<{ challenge: string }>({ method: 'POST', path: '/auth/challenge' });
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

  // long enough that the first status read falls inside it on a loaded machine; then polled until it moves on
  await control.setFaults([{ endpoint: 'sendInvoice', kind: 'stuck', stuckSeconds: 3 }]);
  const stuck = await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'R/2' }));
  const stuckStatus = async () => (await getInvoiceStatus(client, accessToken, session.referenceNumber, stuck.invoiceReferenceNumber)).status.code;
  expect(await stuckStatus()).toBe(150);
  await expect.poll(stuckStatus, { timeout: 15_000, interval: 250 }).toBe(200);
  const counters = await control.counters();
  expect(counters.faults).toMatchObject({ reject: 1, stuck: 1 });
  expect(counters.invoices.byNumber).toMatchObject({ 'R/1': 1, 'R/2': 1 });
});

test('a status past retention answers 410 problem+json; 21184 comes as KSeF refuses, with its code', async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token });
  const session = await openOnlineSession(client, accessToken);
  const sent = await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'G/1' }));
  await control.setFaults([{ endpoint: 'getInvoiceStatus', kind: 'gone', times: 1 }]);
  const gone = await failure(getInvoiceStatus(client, accessToken, session.referenceNumber, sent.invoiceReferenceNumber));
  expect(gone).toBeInstanceOf(KsefApiError);
  expect((gone as KsefApiError).status).toBe(410);
  expect((await getInvoiceStatus(client, accessToken, session.referenceNumber, sent.invoiceReferenceNumber)).status.code).toBe(200);

  await control.setFaults([
    { endpoint: 'sendInvoice', kind: 'exception', exceptionCode: 21184, exceptionDescription: 'Sesja tymczasowo niedostępna.', times: 1 },
  ]);
  const unavailable = await failure(sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'G/2' })));
  expect(unavailable).toMatchObject({ status: 400, code: 21184 });
  expect((await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: 'G/2' }))).invoiceReferenceNumber).toHaveLength(36);
});

test("invoice metadata: the seller's accepted invoices by number, with their hash, paged and within 3 months", async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token });
  const session = await openOnlineSession(client, accessToken);
  const from = new Date(Date.now() - 60_000);
  for (const n of ['M/1', 'M/2']) await sendInvoice(client, accessToken, session, sampleInvoice({ nip, number: n }));
  const found = await findInvoicesByNumber(client, accessToken, 'M/2', from);
  expect(found).toHaveLength(1);
  expect(found[0]).toMatchObject({ invoiceNumber: 'M/2', invoiceHash: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) });
  expect(found[0]?.ksefNumber.startsWith(nip)).toBe(true);
  expect(await findInvoicesByNumber(client, accessToken, 'M/3', from)).toEqual([]);
  // another seller sees none of them
  const other = randomNip();
  const second = await authenticate(client, { kind: 'token', nip: other, token: (await control.createCredentials(other)).token });
  expect(await findInvoicesByNumber(client, second.accessToken, 'M/2', from)).toEqual([]);
  // a range over 3 months is refused as KSeF refuses it
  const tooLong = await failure(
    client.http.json({
      method: 'POST',
      path: '/invoices/query/metadata',
      bearer: accessToken,
      json: { subjectType: 'Subject1', dateRange: { dateType: 'Invoicing', from: '2026-01-01T00:00:00Z', to: '2026-06-01T00:00:00Z' } },
    }),
  );
  expect(tooLong).toMatchObject({ status: 400, code: 21405 });
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
