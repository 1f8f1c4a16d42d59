import { afterAll, beforeAll, expect, test } from 'vitest';
import { config } from '@/server/config';
import { authenticate, KsefAuthError, refreshAccessToken } from '@/server/ksef/auth';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { KsefApiError } from '@/server/ksef/http';
import { isValidKsefNumber } from '@/server/ksef/ksef-number';
import {
  closeOnlineSession,
  getInvoiceStatus,
  getInvoiceUpo,
  getSessionStatus,
  getSessionUpo,
  listSessionInvoices,
  openOnlineSession,
  sendInvoice,
} from '@/server/ksef/online-session';
import { validateXml } from '@/server/ksef/xsd';
import { createTestCertificate } from './self-signed-certificate';
import { createContractChecker } from './contract';
import { createEmulatorControl, type EmulatorControl } from './control-client';
import { startKsefEmulator, type KsefEmulator } from './server';
import { randomNip, sampleInvoice } from './testing';
import { RECEIVER_TE } from './upo';

let emulator: KsefEmulator;
let control: EmulatorControl;
let client: KsefClient;
const contract = createContractChecker(config().KSEF_OPENAPI_PATH);

beforeAll(async () => {
  emulator = await startKsefEmulator({ port: 0, processingDelayMs: 0 });
  control = createEmulatorControl(emulator.url);
  client = createKsefClient({ baseUrl: emulator.url, timeoutMs: 5_000, fetch: contract.wrap(emulator.url) });
});
afterAll(async () => {
  await emulator.close();
});

/** The real TE's receiver name is outside the XSD's fixed value (README §1); put the official one back to check the rest. */
const validateUpo = (xml: string) => validateXml(xml.replace(RECEIVER_TE, 'Ministerstwo Finansów'), 'upo');

test('the base URL ends in /v2 and the key list has one certificate per usage', async () => {
  expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/);
  const token = await client.publicKey('KsefTokenEncryption');
  const symmetric = await client.publicKey('SymmetricKeyEncryption');
  expect(token.publicKeyId).not.toBe(symmetric.publicKeyId);
});

test('KSeF token: authenticate, open, send, number, UPO, close, session UPO', async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const tokens = await authenticate(client, { kind: 'token', nip, token });
  expect(tokens.accessValidUntil.getTime()).toBeGreaterThan(Date.now());
  expect(tokens.refreshValidUntil.getTime()).toBeGreaterThan(tokens.accessValidUntil.getTime());

  const session = await openOnlineSession(client, tokens.accessToken);
  const xml = sampleInvoice({ nip, number: 'FV/1/2026' });
  const sent = await sendInvoice(client, tokens.accessToken, session, xml);
  expect(sent.invoiceHash).toHaveLength(44);

  const status = await getInvoiceStatus(client, tokens.accessToken, session.referenceNumber, sent.invoiceReferenceNumber);
  expect(status.status.code).toBe(200);
  expect(status.invoiceNumber).toBe('FV/1/2026');
  expect(status.invoiceHash).toBe(sent.invoiceHash);
  expect(isValidKsefNumber(status.ksefNumber ?? '')).toBe(true);
  expect(status.ksefNumber?.startsWith(`${nip}-`)).toBe(true);

  const upo = await getInvoiceUpo(client, tokens.accessToken, session.referenceNumber, sent.invoiceReferenceNumber);
  expect(validateUpo(upo)).toEqual({ ok: true });
  expect(upo).toContain(`<NumerKSeFDokumentu>${status.ksefNumber}</NumerKSeFDokumentu>`);
  expect(upo).toContain(`<SkrotDokumentu>${sent.invoiceHash}</SkrotDokumentu>`);
  expect(upo).toContain('<NumerReferencyjnyTokenaKSeF>');

  // The pre-signed link works without Authorization and gives the same document.
  const viaLink = await fetch(status.upoDownloadUrl ?? '');
  expect(viaLink.status).toBe(200);
  expect(await viaLink.text()).toBe(upo);

  await closeOnlineSession(client, tokens.accessToken, session.referenceNumber);
  const closed = await getSessionStatus(client, tokens.accessToken, session.referenceNumber);
  expect(closed.status.code).toBe(200);
  expect(closed.successfulInvoiceCount).toBe(1);
  const page = closed.upo?.pages[0];
  expect(page).toBeDefined();
  const sessionUpo = await getSessionUpo(client, tokens.accessToken, session.referenceNumber, page?.referenceNumber ?? '');
  expect(validateUpo(sessionUpo)).toEqual({ ok: true });
  expect(sessionUpo).toContain('<CalkowitaLiczbaDokumentow>1</CalkowitaLiczbaDokumentow>');

  const refreshed = await refreshAccessToken(client, tokens.refreshToken);
  expect(refreshed.accessToken).not.toBe(tokens.accessToken);
  expect((await getSessionStatus(client, refreshed.accessToken, session.referenceNumber)).status.code).toBe(200);

  expect((await control.counters()).invoices.byNumber['FV/1/2026']).toBe(1);
});

test.each([
  ['RSA seal', 'seal', 'rsa'],
  ['ECDSA P-256 seal', 'seal', 'ec'],
  ['RSA person (TINPL serial number)', 'person', 'rsa'],
] as const)('XAdES with a self-signed %s certificate authenticates and sends', async (_name, kind, algorithm) => {
  const nip = randomNip();
  const cert = await createTestCertificate({ nip, kind, algorithm });
  const tokens = await authenticate(client, { kind: 'certificate', nip, ...cert });
  const session = await openOnlineSession(client, tokens.accessToken);
  const sent = await sendInvoice(client, tokens.accessToken, session, sampleInvoice({ nip, number: `X/${kind}/${algorithm}` }));
  const status = await getInvoiceStatus(client, tokens.accessToken, session.referenceNumber, sent.invoiceReferenceNumber);
  expect(status.status.code).toBe(200);
  const upo = await getInvoiceUpo(client, tokens.accessToken, session.referenceNumber, sent.invoiceReferenceNumber);
  expect(upo).toContain('<SkrotDokumentuUwierzytelniajacego>');
});

test('a certificate of another NIP ends authentication with 415', async () => {
  const cert = await createTestCertificate({ nip: randomNip(), algorithm: 'ec' });
  const err = await authenticate(client, { kind: 'certificate', nip: randomNip(), ...cert }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(KsefAuthError);
  expect((err as KsefAuthError).statusCode).toBe(415);
});

test('a context NIP with a wrong check digit has no context: 21405 for a KSeF token, 21117 for a signed request', async () => {
  const nip = '7010002137'; // the check digit would be 9, not 7
  const { token } = await control.createCredentials(nip);
  const byToken = await authenticate(client, { kind: 'token', nip, token }).catch((e: unknown) => e);
  expect(byToken).toBeInstanceOf(KsefApiError);
  expect((byToken as KsefApiError).code).toBe(21405);
  const cert = await createTestCertificate({ nip, algorithm: 'ec' });
  const bySignature = await authenticate(client, { kind: 'certificate', nip, ...cert }).catch((e: unknown) => e);
  expect((bySignature as KsefApiError).code).toBe(21117);
});

test('a tampered signed document is refused with 9105', async () => {
  const nip = randomNip();
  const cert = await createTestCertificate({ nip, algorithm: 'ec' });
  const { challenge } = await client.http.json<{ challenge: string }>({ method: 'POST', path: '/auth/challenge' });
  const { buildAuthTokenRequest, signXades } = await import('@/server/ksef/xades');
  const signed = signXades(buildAuthTokenRequest({ challenge, nip }), cert).replace(`<Nip>${nip}</Nip>`, `<Nip>${randomNip()}</Nip>`);
  const err = await client.http.json({ method: 'POST', path: '/auth/xades-signature', body: signed, contentType: 'application/xml' }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(KsefApiError);
  expect((err as KsefApiError).code).toBe(9105);
});

test('a wrong or unknown KSeF token ends with 450; a reused challenge is refused with 21111', async () => {
  const nip = randomNip();
  const err = await authenticate(client, { kind: 'token', nip, token: 'not-a-token' }).catch((e: unknown) => e);
  expect((err as KsefAuthError).statusCode).toBe(450);

  const { challenge } = await client.http.json<{ challenge: string }>({ method: 'POST', path: '/auth/challenge' });
  const body = { challenge, contextIdentifier: { type: 'Nip', value: nip }, encryptedToken: Buffer.from('x').toString('base64') };
  await client.http.json({ method: 'POST', path: '/auth/ksef-token', json: body });
  const reused = await client.http.json({ method: 'POST', path: '/auth/ksef-token', json: body }).catch((e: unknown) => e);
  expect((reused as KsefApiError).code).toBe(21111);
});

test('redeem works once (21301)', async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const { challenge, timestampMs } = await client.http.json<{ challenge: string; timestampMs: number }>({ method: 'POST', path: '/auth/challenge' });
  const key = await client.publicKey('KsefTokenEncryption');
  const { encryptRsaOaep, parseKsefCertificate } = await import('@/server/ksef/crypto');
  const encryptedToken = encryptRsaOaep(parseKsefCertificate(key.certificate).publicKey, Buffer.from(`${token}|${timestampMs}`)).toString('base64');
  const init = await client.http.json<{ authenticationToken: { token: string } }>({
    method: 'POST',
    path: '/auth/ksef-token',
    json: { challenge, contextIdentifier: { type: 'Nip', value: nip }, encryptedToken, publicKeyId: key.publicKeyId },
  });
  const bearer = init.authenticationToken.token;
  await client.http.json({ method: 'POST', path: '/auth/token/redeem', bearer });
  const again = await client.http.json({ method: 'POST', path: '/auth/token/redeem', bearer }).catch((e: unknown) => e);
  expect((again as KsefApiError).code).toBe(21301);
});

test('session invoice list pages with continuation tokens', async () => {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  const tokens = await authenticate(client, { kind: 'token', nip, token });
  const session = await openOnlineSession(client, tokens.accessToken);
  for (let i = 0; i < 12; i++) await sendInvoice(client, tokens.accessToken, session, sampleInvoice({ nip, number: `L/${i}` }));
  const page1 = await client.http.json<{ continuationToken: string | null; invoices: unknown[] }>({
    method: 'GET',
    path: `/sessions/${session.referenceNumber}/invoices`,
    bearer: tokens.accessToken,
  });
  expect(page1.invoices).toHaveLength(10);
  expect(page1.continuationToken).toBeTruthy();
  expect(await listSessionInvoices(client, tokens.accessToken, session.referenceNumber)).toHaveLength(12);
  expect(await listSessionInvoices(client, tokens.accessToken, session.referenceNumber, true)).toHaveLength(0);
});

test('every response in these tests matched the official OpenAPI', () => {
  expect(contract.checks.length).toBeGreaterThan(20);
  expect(contract.violations()).toEqual([]);
});

test('the contract checker does catch a body that breaks the schema', () => {
  const own = createContractChecker(config().KSEF_OPENAPI_PATH);
  expect(own.check('GET', '/sessions/20250625-SO-2C3E6C8000-B675CF5D68-07', 200, 'application/json', '{"status":{"code":"x"}}').errors).toMatch(
    /dateCreated|code/,
  );
  expect(own.check('POST', '/auth/challenge', 200, 'application/json', '{"challenge":"c","timestamp":"t","timestampMs":1,"clientIp":"x"}').errors).toBeTruthy();
});
