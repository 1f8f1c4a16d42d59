import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { config } from '@/server/config';
import { authenticate } from '@/server/ksef/auth';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { encryptAes, sha256Base64 } from '@/server/ksef/crypto';
import { KsefApiError } from '@/server/ksef/http';
import { getInvoiceStatus, getSessionStatus, closeOnlineSession, openOnlineSession, sendInvoice, type OnlineSession } from '@/server/ksef/online-session';
import { createContractChecker } from './contract';
import { createEmulatorControl, type EmulatorControl } from './control-client';
import { startKsefEmulator, type KsefEmulator } from './server';
import { randomNip, sampleInvoice } from './testing';

let emulator: KsefEmulator;
let control: EmulatorControl;
let client: KsefClient;
const contract = createContractChecker(config().KSEF_OPENAPI_PATH);

beforeAll(async () => {
  emulator = await startKsefEmulator({ processingDelayMs: 0 });
  control = createEmulatorControl(emulator.url);
  client = createKsefClient({ baseUrl: emulator.url, fetch: contract.wrap(emulator.url) });
});
afterAll(() => emulator.close());

async function seller(nip = randomNip()) {
  const { token } = await control.createCredentials(nip);
  const { accessToken } = await authenticate(client, { kind: 'token', nip, token });
  const session = await openOnlineSession(client, accessToken);
  const send = async (xml: string) => {
    const sent = await sendInvoice(client, accessToken, session, xml);
    return getInvoiceStatus(client, accessToken, session.referenceNumber, sent.invoiceReferenceNumber);
  };
  return { nip, accessToken, session, send };
}

test("an invoice that fails the FA(3) schema gets 450 with libxml2's message", async () => {
  const s = await seller();
  const status = await s.send(sampleInvoice({ nip: s.nip, number: 'S/1' }).replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>'));
  expect(status.status.code).toBe(450);
  expect(status.status.details?.join(' ')).toMatch(/P_2x/);
  expect(status.ksefNumber ?? null).toBeNull();
});

test('a seller NIP other than the session context is refused (410)', async () => {
  const s = await seller();
  const status = await s.send(sampleInvoice({ nip: randomNip(), number: 'S/2' }));
  expect(status.status.code).toBe(410);
});

test('a duplicate (NIP, RodzajFaktury, P_2) gets 440 naming the original KSeF number', async () => {
  const s = await seller();
  const first = await s.send(sampleInvoice({ nip: s.nip, number: 'DUP/1' }));
  expect(first.status.code).toBe(200);
  const second = await s.send(sampleInvoice({ nip: s.nip, number: 'DUP/1' }).replace('<P_1>2026-02-01</P_1>', '<P_1>2026-02-02</P_1>'));
  expect(second.status.code).toBe(440);
  expect(second.status.extensions).toEqual({ originalSessionReferenceNumber: s.session.referenceNumber, originalKsefNumber: first.ksefNumber });
  // Another number of the same seller is fine.
  expect((await s.send(sampleInvoice({ nip: s.nip, number: 'DUP/2' }))).status.code).toBe(200);
});

test('an issue date after today is refused (450)', async () => {
  const s = await seller();
  expect((await s.send(sampleInvoice({ nip: s.nip, number: 'F/1', issueDate: '2049-01-01' }))).status.code).toBe(450);
});

test.each([
  ["U+0085 is not on KSeF's list", '\u0085', 200],
  ['U+0086', '\u0086', 450],
  ['U+FDD0', '\uFDD0', 450],
  ['U+1FFFE', '\u{1FFFE}', 450],
  ['U+10FFFF', '\u{10FFFF}', 450],
])('discouraged characters: %s → %i', async (_, char, code) => {
  const s = await seller();
  const xml = sampleInvoice({ nip: s.nip, number: `C/${code}/${char.codePointAt(0)}` }).replace(/<P_7>/, `<P_7>${char}`);
  expect((await s.send(xml)).status.code).toBe(code);
});

test('a P_1 before the day KSeF receives it is marked Offline even when sent with offlineMode false', async () => {
  const s = await seller();
  const past = await s.send(sampleInvoice({ nip: s.nip, number: 'O/1' }));
  expect([past.status.code, past.invoicingMode]).toEqual([200, 'Offline']);
});

test('a correction of an unknown KSeF number is refused; of a known one it is accepted', async () => {
  const fixture = readFileSync(path.join(config().KSEF_SCHEMAS_DIR, '../../domain/fixtures/fa3-kor-pln-refund-4822.xml'), 'utf8');
  const s = await seller('5265877635');
  const rejected = await s.send(fixture);
  expect(rejected.status.code).toBe(450);
  expect(rejected.status.details?.join(' ')).toContain('5265877635-20260602-01000016B2C4-ED');

  const original = await s.send(sampleInvoice({ nip: s.nip, number: 'ORIG/1' }));
  const corrected = fixture.replace('5265877635-20260602-01000016B2C4-ED', original.ksefNumber ?? '');
  expect((await s.send(corrected)).status.code).toBe(200);
});

test('declared sizes and hashes are checked synchronously (21402, 21403)', async () => {
  const s = await seller();
  const plain = Buffer.from(sampleInvoice({ nip: s.nip, number: 'H/1' }));
  const keyOf = (x: OnlineSession) => ({ key: Buffer.from(x.aesKey, 'base64'), iv: Buffer.from(x.iv, 'base64') });
  const cipher = encryptAes(plain, keyOf(s.session));
  const body = {
    invoiceHash: sha256Base64(plain),
    invoiceSize: plain.length,
    encryptedInvoiceHash: sha256Base64(cipher),
    encryptedInvoiceSize: cipher.length,
    encryptedInvoiceContent: cipher.toString('base64'),
  };
  const post = (json: object, headers: Record<string, string> = {}) =>
    client.http.json({ method: 'POST', path: `/sessions/online/${s.session.referenceNumber}/invoices`, bearer: s.accessToken, json, headers }).then(
      () => {
        throw new Error('accepted');
      },
      (e: unknown) => e as KsefApiError,
    );
  expect((await post({ ...body, encryptedInvoiceSize: cipher.length + 16 })).code).toBe(21402);
  expect((await post({ ...body, invoiceHash: sha256Base64('other') })).code).toBe(21403);
  const problem = await post({ ...body, invoiceSize: 1 }, { 'x-error-format': 'problem-details' });
  expect(problem.code).toBe(21402);
  expect((problem.body as { traceId?: string }).traceId).toBeTruthy();
});

test('unknown session (21173), closed session (21180), missing token (401)', async () => {
  const s = await seller();
  const other = '20250625-SO-2C3E6C8000-B675CF5D68-07';
  const err = (await sendInvoice(client, s.accessToken, { ...s.session, referenceNumber: other }, 'x').catch((e: unknown) => e)) as KsefApiError;
  expect(err.code).toBe(21173);
  await closeOnlineSession(client, s.accessToken, s.session.referenceNumber);
  expect((await getSessionStatus(client, s.accessToken, s.session.referenceNumber)).status.code).toBe(440);
  const late = (await sendInvoice(client, s.accessToken, s.session, sampleInvoice({ nip: s.nip, number: 'C/1' })).catch((e: unknown) => e)) as KsefApiError;
  expect(late.code).toBe(21180);
  const anonymous = await getSessionStatus(client, 'nope', s.session.referenceNumber).catch((e: unknown) => e as KsefApiError);
  expect(anonymous.status).toBe(401);
});

test('with a processing delay the invoice shows 150 first, then 200', async () => {
  await control.setProcessingDelay(300);
  try {
    const s = await seller();
    const sent = await sendInvoice(client, s.accessToken, s.session, sampleInvoice({ nip: s.nip, number: 'D/1' }));
    expect((await getInvoiceStatus(client, s.accessToken, s.session.referenceNumber, sent.invoiceReferenceNumber)).status.code).toBe(150);
    await closeOnlineSession(client, s.accessToken, s.session.referenceNumber);
    expect((await getSessionStatus(client, s.accessToken, s.session.referenceNumber)).status.code).toBe(170);
    await new Promise((r) => setTimeout(r, 450));
    expect((await getInvoiceStatus(client, s.accessToken, s.session.referenceNumber, sent.invoiceReferenceNumber)).status.code).toBe(200);
    expect((await getSessionStatus(client, s.accessToken, s.session.referenceNumber)).status.code).toBe(200);
  } finally {
    await control.setProcessingDelay(0);
  }
});

test('every response matched the official OpenAPI', () => {
  expect(contract.violations()).toEqual([]);
});
