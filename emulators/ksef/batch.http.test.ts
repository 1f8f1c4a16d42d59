import { afterAll, beforeAll, expect, test } from 'vitest';
import { config } from '@/server/config';
import { authenticate } from '@/server/ksef/auth';
import { sendBatch } from '@/server/ksef/batch-session';
import { createKsefClient, type KsefClient } from '@/server/ksef/client';
import { KsefApiError } from '@/server/ksef/http';
import { isValidKsefNumber } from '@/server/ksef/ksef-number';
import { newSessionKey } from '@/server/ksef/crypto';
import { getSessionStatus, getSessionUpo, listSessionInvoices, sessionEncryption } from '@/server/ksef/online-session';
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

async function login() {
  const nip = randomNip();
  const { token } = await control.createCredentials(nip);
  return { nip, ...(await authenticate(client, { kind: 'token', nip, token })) };
}

test('a batch in several parts: each invoice processed on its own, failures listed, session UPO', async () => {
  const { nip, accessToken } = await login();
  const invoices = Array.from({ length: 30 }, (_, i) => ({ fileName: `inv-${i}.xml`, xml: sampleInvoice({ nip, number: `B/${i}` }) }));
  invoices.push({ fileName: 'bad.xml', xml: sampleInvoice({ nip, number: 'B/bad' }).replace('<P_2>', '<P_2x>').replace('</P_2>', '</P_2x>') });
  const batch = await sendBatch(client, accessToken, invoices, { partBytes: 4_000 });
  expect(batch.compressionType).toBe('TarGz'); // 31 similar invoices: one gzip stream beats Zip's per-file deflate

  const status = await getSessionStatus(client, accessToken, batch.referenceNumber);
  expect(status.status.code).toBe(200);
  expect(status.invoiceCount).toBe(31);
  expect(status.successfulInvoiceCount).toBe(30);
  expect(status.failedInvoiceCount).toBe(1);

  const all = await listSessionInvoices(client, accessToken, batch.referenceNumber);
  expect(all.every((i) => i.status.code !== 200 || isValidKsefNumber(i.ksefNumber ?? ''))).toBe(true);
  const failed = await listSessionInvoices(client, accessToken, batch.referenceNumber, true);
  expect(failed.map((i) => [(i as { invoiceFileName?: string }).invoiceFileName, i.status.code])).toEqual([['bad.xml', 450]]);
  expect(all.find((i) => i.invoiceNumber === 'B/3')?.invoiceHash).toBe(batch.invoiceHashes['inv-3.xml']);

  const upo = await getSessionUpo(client, accessToken, batch.referenceNumber, status.upo?.pages[0]?.referenceNumber ?? '');
  expect(upo).toContain('<CalkowitaLiczbaDokumentow>30</CalkowitaLiczbaDokumentow>');
});

test.each(['Zip', 'TarGz'] as const)('a %s package is unpacked as declared in batchFile.compressionType', async (compressionType) => {
  const { nip, accessToken } = await login();
  const invoices = Array.from({ length: 3 }, (_, i) => ({
    fileName: `${compressionType}-${i}.xml`,
    xml: sampleInvoice({ nip, number: `${compressionType}/${i}` }),
  }));
  const batch = await sendBatch(client, accessToken, invoices, { compressionType });
  expect(batch.compressionType).toBe(compressionType);
  const status = await getSessionStatus(client, accessToken, batch.referenceNumber);
  expect([status.status.code, status.successfulInvoiceCount]).toEqual([200, 3]);
  const numbers = (await listSessionInvoices(client, accessToken, batch.referenceNumber)).map((i) => i.invoiceNumber).sort();
  expect(numbers).toEqual([`${compressionType}/0`, `${compressionType}/1`, `${compressionType}/2`]);
});

const openBatch = async (accessToken: string, encryption: object) =>
  client.http.json<{ referenceNumber: string }>({
    method: 'POST',
    path: '/sessions/batch',
    bearer: accessToken,
    json: {
      formCode: { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' },
      batchFile: { fileSize: 10, fileHash: 'A'.repeat(43) + '=', fileParts: [{ ordinalNumber: 1, fileSize: 16, fileHash: 'A'.repeat(43) + '=' }] },
      encryption,
    },
  });

test('closing before every part was uploaded is refused with 21205', async () => {
  const { accessToken } = await login();
  const opened = await openBatch(accessToken, await sessionEncryption(client, newSessionKey()));
  const err = await client.http.send({ method: 'POST', path: `/sessions/batch/${opened.referenceNumber}/close`, bearer: accessToken }).catch((e: unknown) => e);
  expect((err as KsefApiError).code).toBe(21205);
});

test('a session key that does not decrypt leaves the session in 415 and refuses closing (21180)', async () => {
  const { accessToken } = await login();
  const opened = await openBatch(accessToken, { encryptedSymmetricKey: 'AAAA', initializationVector: Buffer.alloc(16).toString('base64') });
  expect((await getSessionStatus(client, accessToken, opened.referenceNumber)).status.code).toBe(415);
  const err = await client.http.send({ method: 'POST', path: `/sessions/batch/${opened.referenceNumber}/close`, bearer: accessToken }).catch((e: unknown) => e);
  expect((err as KsefApiError).code).toBe(21180);
});

test('every response matched the official OpenAPI', () => {
  expect(contract.checks.some((c) => c.schema.includes('/sessions/batch'))).toBe(true);
  expect(contract.violations()).toEqual([]);
});
