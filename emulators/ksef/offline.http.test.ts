import { createPrivateKey, X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { config } from '@/server/config';
import { authenticate } from '@/server/ksef/auth';
import {
  enrollCertificate,
  getCertificateLimits,
  getEnrollmentData,
  getEnrollmentStatus,
  retrieveCertificates,
  revokeCertificate,
} from '@/server/ksef/certificates';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { certificatePemOf, createCsr } from '@/server/ksef/csr';
import { KsefApiError } from '@/server/ksef/http';
import { getInvoiceStatus, getInvoiceUpo, openOnlineSession, sendInvoice } from '@/server/ksef/online-session';
import { kodIIUrl, kodIUrl } from '@/server/ksef/qr';
import { toWarsawDate } from '@/server/calendar/date-text';
import { createContractChecker } from './contract';
import { createEmulatorControl, type EmulatorControl } from './control-client';
import { createTestCertificate } from './self-signed-certificate';
import { startKsefEmulator, type KsefEmulator } from './server';
import { randomNip, sampleInvoice } from './testing';

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
  expect(contract.violations()).toEqual([]);
});

async function sealLogin(nip: string) {
  const seal = await createTestCertificate({ nip });
  return (await authenticate(client, { kind: 'certificate', nip, ...seal })).accessToken;
}

async function enrolOffline(token: string, keyType: 'ec' | 'rsa' = 'ec', certificateType: 'Offline' | 'Authentication' = 'Offline') {
  const data = await getEnrollmentData(client, token);
  const { csr, privateKeyPem } = await createCsr(data, keyType);
  const { referenceNumber } = await enrollCertificate(client, token, { certificateName: `Relay ${certificateType} ${keyType}`, certificateType, csr });
  const status = await getEnrollmentStatus(client, token, referenceNumber);
  expect(status.status.code).toBe(200);
  const [retrieved] = await retrieveCertificates(client, token, [status.certificateSerialNumber!]);
  return { serial: status.certificateSerialNumber!, certificatePem: certificatePemOf(retrieved!.certificate), privateKeyPem, type: retrieved!.certificateType };
}

const daysAgo = (n: number) => toWarsawDate(new Date(Date.now() - n * 86_400_000));

describe('Offline certificate enrolment', () => {
  test('a seal (XAdES) login enrols an Offline certificate for its own subject, EC and RSA', async () => {
    const nip = randomNip();
    const token = await sealLogin(nip);
    const limits = await getCertificateLimits(client, token);
    expect(limits).toEqual({ canRequest: true, enrollment: { remaining: 300, limit: 300 }, certificate: { remaining: 100, limit: 100 } });
    const data = await getEnrollmentData(client, token);
    expect(data).toMatchObject({ commonName: `Test ${nip}`, countryName: 'PL', organizationName: `Test ${nip}`, organizationIdentifier: `VATPL-${nip}` });

    for (const keyType of ['ec', 'rsa'] as const) {
      const enrolled = await enrolOffline(token, keyType);
      expect(enrolled.serial).toMatch(/^[0-9A-F]{16}$/);
      expect(enrolled.type).toBe('Offline');
      const cert = new X509Certificate(enrolled.certificatePem);
      expect(cert.checkPrivateKey(createPrivateKey(enrolled.privateKeyPem))).toBe(true);
      expect(cert.subject).toContain(`CN=Test ${nip}`);
      expect(cert.publicKey.asymmetricKeyType).toBe(keyType);
    }
    expect((await getCertificateLimits(client, token)).certificate.remaining).toBe(98);
  });

  test('a KSeF-token login cannot get CSR data (25001) or enrol (25002)', async () => {
    const nip = randomNip();
    const { token: ksefToken } = await control.createCredentials(nip);
    const { accessToken } = await authenticate(client, { kind: 'token', nip, token: ksefToken });
    await expect(getEnrollmentData(client, accessToken)).rejects.toMatchObject({ code: 25001 });
    const { csr } = await createCsr({ commonName: `Test ${nip}`, countryName: 'PL' });
    await expect(enrollCertificate(client, accessToken, { certificateName: 'Relay Offline', certificateType: 'Offline', csr })).rejects.toMatchObject({
      code: 25002,
    });
  });

  test('a CSR with another subject is refused (25003), a broken one too (25004)', async () => {
    const nip = randomNip();
    const token = await sealLogin(nip);
    const { csr } = await createCsr({ commonName: 'Someone else', countryName: 'PL' });
    const err = await enrollCertificate(client, token, { certificateName: 'Relay Offline', certificateType: 'Offline', csr }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KsefApiError);
    expect((err as KsefApiError).code).toBe(25003);
    await expect(enrollCertificate(client, token, { certificateName: 'Relay Offline', certificateType: 'Offline', csr: 'AAAA' })).rejects.toMatchObject({
      code: 25004,
    });
  });
});

describe('offline invoices, QR verification and technical correction', () => {
  test('offlineMode is recorded; an undeclared invoice with an earlier P_1 is classified Offline; both show in status and UPO', async () => {
    const nip = randomNip();
    const token = await sealLogin(nip);
    const session = await openOnlineSession(client, token);
    const declared = await sendInvoice(client, token, session, sampleInvoice({ nip, number: 'FV/OFF/1', issueDate: daysAgo(0) }), { offlineMode: true });
    const late = await sendInvoice(client, token, session, sampleInvoice({ nip, number: 'FV/OFF/2', issueDate: daysAgo(2) }));
    const online = await sendInvoice(client, token, session, sampleInvoice({ nip, number: 'FV/OFF/3', issueDate: daysAgo(0) }));
    const modes = [];
    for (const sent of [declared, late, online]) {
      const status = await getInvoiceStatus(client, token, session.referenceNumber, sent.invoiceReferenceNumber);
      expect(status.status.code).toBe(200);
      const upo = await getInvoiceUpo(client, token, session.referenceNumber, sent.invoiceReferenceNumber);
      expect(upo).toContain(`<TrybWysylki>${status.invoicingMode}</TrybWysylki>`);
      modes.push(status.invoicingMode);
    }
    expect(modes).toEqual(['Offline', 'Offline', 'Online']);
  });

  test('KOD I and KOD II (EC and RSA) verify like the Ministry pages; a revoked or Authentication certificate does not', async () => {
    const nip = randomNip();
    const token = await sealLogin(nip);
    const ec = await enrolOffline(token, 'ec');
    const rsa = await enrolOffline(token, 'rsa');
    const auth = await enrolOffline(token, 'ec', 'Authentication');
    const xml = sampleInvoice({ nip, number: 'FV/QR/1', issueDate: daysAgo(0) });
    const kodI = kodIUrl({ environment: 'test', sellerNip: nip, issueDate: daysAgo(0), xml });
    const kodII = (c: { serial: string; privateKeyPem: string }) =>
      kodIIUrl({ environment: 'test', contextType: 'Nip', contextValue: nip, sellerNip: nip, certificateSerial: c.serial, xml, privateKey: c.privateKeyPem });

    expect(await control.verifyQr(kodI)).toMatchObject({ status: 'NotInKsef' });
    const session = await openOnlineSession(client, token);
    const sent = await sendInvoice(client, token, session, xml, { offlineMode: true });
    const status = await getInvoiceStatus(client, token, session.referenceNumber, sent.invoiceReferenceNumber);
    expect(await control.verifyQr(kodI)).toEqual(expect.objectContaining({ status: 'Accepted', ksefNumber: status.ksefNumber, invoicingMode: 'Offline' }));

    expect(await control.verifyQr(kodII(ec))).toMatchObject({ valid: true, certificate: { type: 'Offline', status: 'Active' } });
    expect(await control.verifyQr(kodII(rsa))).toMatchObject({ valid: true });
    expect(await control.verifyQr(kodII(auth))).toMatchObject({ valid: false, checks: { certificateValid: false, signatureValid: true } });
    const forged = kodII(ec).replace(`/${ec.serial}/`, `/${rsa.serial}/`);
    expect(await control.verifyQr(forged)).toMatchObject({ valid: false, checks: { certificateValid: true, signatureValid: false } });
    const otherSeller = randomNip();
    const foreign = kodIIUrl({
      environment: 'test',
      contextType: 'Nip',
      contextValue: otherSeller,
      sellerNip: otherSeller,
      certificateSerial: ec.serial,
      xml,
      privateKey: ec.privateKeyPem,
    });
    expect(await control.verifyQr(foreign)).toMatchObject({ valid: false, checks: { signatureValid: true, contextPermitted: false } });

    await revokeCertificate(client, token, rsa.serial);
    expect(await control.verifyQr(kodII(rsa))).toMatchObject({ valid: false, checks: { certificateValid: false } });
  });

  test('an offline invoice rejected for a technical reason is replaced with hashOfCorrectedInvoice; its KOD I then says so', async () => {
    const nip = randomNip();
    const token = await sealLogin(nip);
    const session = await openOnlineSession(client, token);
    const original = sampleInvoice({ nip, number: 'FV/TK/1', issueDate: daysAgo(1) });
    await control.setFaults([{ endpoint: 'sendInvoice', kind: 'reject', rejectCode: 450, times: 1 }]);
    const rejected = await sendInvoice(client, token, session, original, { offlineMode: true });
    await control.clearFaults();
    expect((await getInvoiceStatus(client, token, session.referenceNumber, rejected.invoiceReferenceNumber)).status.code).toBe(450);

    const online = await sendInvoice(client, token, session, sampleInvoice({ nip, number: 'FV/TK/2', issueDate: daysAgo(0) }));
    await expect(sendInvoice(client, token, session, original, { offlineMode: true, hashOfCorrectedInvoice: online.invoiceHash })).rejects.toMatchObject({
      code: 21167,
    });
    await expect(sendInvoice(client, token, session, original, { hashOfCorrectedInvoice: rejected.invoiceHash })).rejects.toMatchObject({ code: 21405 });

    const fixed = original.replace('</Faktura>', '\n</Faktura>'); // new bytes, same content
    const correction = await sendInvoice(client, token, session, fixed, { offlineMode: true, hashOfCorrectedInvoice: rejected.invoiceHash });
    const status = await getInvoiceStatus(client, token, session.referenceNumber, correction.invoiceReferenceNumber);
    expect(status).toMatchObject({ status: { code: 200 }, invoicingMode: 'Offline' });
    await expect(sendInvoice(client, token, session, fixed, { offlineMode: true, hashOfCorrectedInvoice: rejected.invoiceHash })).rejects.toMatchObject({
      code: 21166,
    });

    const oldKodI = kodIUrl({ environment: 'test', sellerNip: nip, issueDate: daysAgo(1), xml: original });
    expect(await control.verifyQr(oldKodI)).toMatchObject({ status: 'TechnicallyCorrected', ksefNumber: status.ksefNumber });
  });
});
