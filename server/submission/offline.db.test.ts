import { get } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestCertificate } from '@/emulators/ksef/self-signed-certificate';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { randomNip } from '@/emulators/ksef/testing';
import { resetConfig } from '@/server/config';
import { documents, files } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { serializeDocument } from '@/server/documents/serialize-document';
import { AppError } from '@/server/errors';
import { authenticate } from '@/server/ksef/auth';
import { enrollCertificate, getEnrollmentData, getEnrollmentStatus, retrieveCertificates } from '@/server/ksef/certificates';
import { createKsefClient } from '@/server/ksef/client';
import { certificatePemOf, createCsr } from '@/server/ksef/csr';
import { kodIUrl, parseKodIIUrl } from '@/server/ksef/qr';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { offlineCertificateState, uploadOfflineCertificate } from '@/server/ksef-connection/offline-certificate';
import { setOfflinePolicy } from '@/server/ksef-connection/offline-policy';
import { closeMailTransports } from '@/server/mail/send-mail';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { decodeAllQr, pdfText } from '@/test/pdf-tools';
import { timeline, useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { enrolOfflineCertificate, TOKEN_CANNOT_ENROL } from './enrol-offline-certificate';
import { markMissedDeadlines, offlineSummary } from './offline-deadlines';
import { correctTechnically } from './technical-correction';

const t = useTestDatabase();
const ksef = useKsefEmulator();
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  process.env.KSEF_RETRY_SCALE = '0.02';
  resetConfig();
});
afterAll(async () => {
  await closeMailTransports();
  await sink.close();
});
useWorker(t.url);

const KSEF_DOWN = [{ endpoint: '*', kind: 'html503' as const }];

/** A seller connected to the emulator with its company seal (XAdES), as enrolment requires. */
async function sealedSeller() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  const seal = await createTestCertificate({ nip });
  await saveKsefCredential(t.db(), acct.testScope, { kind: 'certificate', certificatePem: seal.certificatePem, privateKeyPem: seal.privateKeyPem });
  return { ...acct, nip, seal };
}

/** An RSA Offline certificate enrolled straight through the KSeF API, then uploaded as PEM files (the upload path). */
async function uploadRsaOfflineCertificate(seller: Awaited<ReturnType<typeof sealedSeller>>) {
  const client = createKsefClient({ baseUrl: ksef.url() });
  const { accessToken } = await authenticate(client, { kind: 'certificate', nip: seller.nip, ...seller.seal });
  const { csr, privateKeyPem } = await createCsr(await getEnrollmentData(client, accessToken), 'rsa');
  const { referenceNumber } = await enrollCertificate(client, accessToken, { certificateName: 'Uploaded RSA Offline', certificateType: 'Offline', csr });
  const { certificateSerialNumber } = await getEnrollmentStatus(client, accessToken, referenceNumber);
  const [cert] = await retrieveCertificates(client, accessToken, [certificateSerialNumber!]);
  return uploadOfflineCertificate(t.db(), seller.testScope, { format: 'pem', certificatePem: certificatePemOf(cert!.certificate), privateKeyPem });
}

async function invoiceFor(scope: { accountId: string; mode: 'test' }) {
  const email = `buyer-${Math.random().toString(36).slice(2)}@example.test`;
  const order = paidOrder();
  const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput({ ...order, buyer: { ...order.buyer, email } }));
  return { id: document.id, email };
}

const load = async (id: string) => (await t.db().select().from(documents).where(eq(documents.id, id)))[0]!;
const pdfOf = async (fileId: string) => (await t.db().select({ content: files.content }).from(files).where(eq(files.id, fileId)))[0]!.content;
/** The sink's messages to one address, over a fresh connection (no keep-alive socket the sink may have dropped). */
const mailsTo = (email: string) =>
  new Promise<SinkMessage[]>((resolve, reject) => {
    get(`${sink.httpUrl}/messages?to=${encodeURIComponent(email)}`, { agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as SinkMessage[]));
    }).on('error', reject);
  });

/** The offline PDF: KOD I decodes to the exact link and reads OFFLINE; KOD II, once the layout prints it, decodes too. */
async function expectOfflinePdf(doc: Awaited<ReturnType<typeof load>>) {
  const pdf = await pdfOf(doc.pdfFileId!);
  const kodI = kodIUrl({ environment: 'test', sellerNip: parseKodIIUrl(doc.offlineKodIiUrl!)!.sellerNip, issueDate: doc.issueDate!, xml: doc.fa3Xml! });
  const text = pdfText(pdf);
  expect(text).toContain('OFFLINE');
  const codes = decodeAllQr(pdf, 1);
  expect(codes).toContain(kodI);
  expect(codes.every((c) => c === kodI || c === doc.offlineKodIiUrl)).toBe(true);
  if (text.includes('CERTYFIKAT')) expect(codes).toContain(doc.offlineKodIiUrl);
  return kodI;
}

describe('Offline certificate', () => {
  test('enrolment through KSeF in one call with a seal login; a token connection cannot enrol and says so', async () => {
    const seller = await sealedSeller();
    const outcome = await enrolOfflineCertificate(t.db(), seller.testScope);
    expect(outcome.state).toBe('done');
    const row = (
      await t
        .db()
        .execute<{ s: string; src: string }>(
          sql`select offline_certificate_serial as s, offline_certificate_source as src from account_modes where account_id = ${seller.accountId} and mode = 'test'`,
        )
    )[0]!;
    expect(row).toEqual({ s: outcome.state === 'done' ? outcome.certificate.serial : '', src: 'enrolment' });

    const tokenSeller = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip: randomNip() } });
    await ksef.connect(
      t.db(),
      tokenSeller.testScope,
      (
        await t.db().execute<{ nip: string }>(sql`select seller_nip as nip from account_modes where account_id = ${tokenSeller.accountId} and mode = 'test'`)
      )[0]!.nip,
    );
    expect(await enrolOfflineCertificate(t.db(), tokenSeller.testScope)).toMatchObject({
      state: 'failed',
      reason: TOKEN_CANNOT_ENROL,
      detail: 'enrol_needs_certificate',
    });
  });

  test('the setting cannot be turned on without a valid Offline certificate; an Authentication certificate is refused at upload; expiry is warned 30 days ahead', async () => {
    const seller = await sealedSeller();
    const refused = await setOfflinePolicy(t.db(), seller.testScope, { policy: 'when_unavailable', delaySeconds: 300 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toMatch(/cannot be turned on: No KSeF Offline certificate/);
    const notOffline = await uploadOfflineCertificate(t.db(), seller.testScope, { format: 'pem', ...seller.seal }).catch((e: unknown) => e);
    expect((notOffline as AppError).message).toMatch(/not a KSeF certificate of type Offline/);

    const cert = await uploadRsaOfflineCertificate(seller);
    await setOfflinePolicy(t.db(), seller.testScope, { policy: 'always', delaySeconds: 300 });
    const columns = { offlineCertificateSerial: cert.serial, offlineCertificateValidFrom: cert.validFrom, offlineCertificateValidTo: cert.validTo };
    expect(offlineCertificateState(columns, new Date(cert.validTo.getTime() - 40 * 86_400_000)).state).toBe('valid');
    expect(offlineCertificateState(columns, new Date(cert.validTo.getTime() - 10 * 86_400_000))).toMatchObject({
      state: 'expiring',
      warning: expect.stringMatching(/expires/),
    });
    expect(offlineCertificateState(columns, new Date(cert.validTo.getTime() + 1))).toMatchObject({ state: 'expired' });
  });
});

describe('issuing offline', { timeout: 90_000 }, () => {
  test('KSeF unavailable: after the delay the buyer gets the offline PDF (KOD I OFFLINE, KOD II) by e-mail; KSeF back: accepted as Offline, PDF re-rendered, no second e-mail', async () => {
    const seller = await sealedSeller();
    expect((await enrolOfflineCertificate(t.db(), seller.testScope)).state).toBe('done');
    await setOfflinePolicy(t.db(), seller.testScope, { policy: 'when_unavailable', delaySeconds: 2 });
    await ksef.control().setFaults(KSEF_DOWN);
    let kodI = '';
    try {
      const { id, email } = await invoiceFor(seller.testScope);
      await expect.poll(async () => (await load(id)).mailStatus, { timeout: 30_000 }).toBe('sent');
      const doc = await load(id);
      expect(doc.status).toBe('queued');
      expect(doc.ksefNumber).toBeNull();
      const firstFailure = (
        await t
          .db()
          .execute<{ at: Date }>(sql`select min(at) as at from document_transitions where document_id = ${id} and error->>'code' = 'ksef_unavailable'`)
      )[0]!.at;
      expect(doc.offlineIssuedAt!.getTime()).toBeGreaterThanOrEqual(new Date(firstFailure).getTime() + 2_000);
      expect(serializeDocument(doc).offline).toMatchObject({ deadline_missed: false, technical_correction_of: null });
      expect(serializeDocument(doc).pdf_url).not.toBeNull();

      kodI = await expectOfflinePdf(doc);
      expect(await ksef.control().verifyQr(kodI)).toMatchObject({ status: 'NotInKsef' });
      expect(await ksef.control().verifyQr(doc.offlineKodIiUrl!)).toMatchObject({ valid: true, checks: { signatureValid: true } });
      expect(parseKodIIUrl(doc.offlineKodIiUrl!)!.signature).toHaveLength(64); // ECDSA P-256, IEEE P1363
      const [mail] = await mailsTo(email);
      expect(mail?.text).toMatch(/offline24/);
      expect(mail?.attachments[0]?.contentType).toBe('application/pdf');

      await ksef.control().clearFaults();
      const done = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error'], 30_000);
      expect(done.status).toBe('accepted');
      expect(done.upoXml).toContain('<TrybWysylki>Offline</TrybWysylki>');
      expect(done.offlineDeadlineMissed).toBe(false);
      expect(await ksef.control().verifyQr(kodI)).toMatchObject({ status: 'Accepted', invoicingMode: 'Offline', ksefNumber: done.ksefNumber });

      await expect.poll(async () => (await load(id)).pdfFileId, { timeout: 20_000 }).not.toBeNull();
      const numbered = await pdfOf((await load(id)).pdfFileId!);
      expect(pdfText(numbered)).toContain(done.ksefNumber!);
      expect(decodeAllQr(numbered, 1)).toEqual([kodI]);
      expect(await mailsTo(email)).toHaveLength(1);
    } finally {
      await ksef.control().clearFaults();
    }
  });

  test('offline-first issues at once, before KSeF is asked; RSA KOD II verifies; accepted as Offline', async () => {
    const seller = await sealedSeller();
    await uploadRsaOfflineCertificate(seller);
    await setOfflinePolicy(t.db(), seller.testScope, { policy: 'always', delaySeconds: 300 });
    const { id } = await invoiceFor(seller.testScope);
    const done = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error'], 30_000);
    expect(done.status).toBe('accepted');
    expect(done.upoXml).toContain('<TrybWysylki>Offline</TrybWysylki>');
    const sendingAt = (
      await t.db().execute<{ at: Date }>(sql`select min(at) as at from document_transitions where document_id = ${id} and to_status = 'sending'`)
    )[0]!.at;
    expect(done.offlineIssuedAt!.getTime()).toBeLessThanOrEqual(new Date(sendingAt).getTime());
    expect(parseKodIIUrl(done.offlineKodIiUrl!)!.signature).toHaveLength(256); // RSA-2048 PSS
    // what KSeF accepted is the XML the buyer's offline invoice carries, built once
    expect(Buffer.from(parseKodIIUrl(done.offlineKodIiUrl!)!.invoiceHash, 'base64url').equals(Buffer.from(done.xmlSha256!, 'base64'))).toBe(true);
    expect(await ksef.control().verifyQr(done.offlineKodIiUrl!)).toMatchObject({ valid: true });
    await expect.poll(async () => (await load(id)).mailStatus, { timeout: 20_000 }).toBe('sent');
  });

  test('a missed deadline is marked and shown (time passed in); KSeF still accepts and the document says so', async () => {
    const seller = await sealedSeller();
    await uploadRsaOfflineCertificate(seller);
    await setOfflinePolicy(t.db(), seller.testScope, { policy: 'always', delaySeconds: 300 });
    await ksef.control().setFaults(KSEF_DOWN);
    try {
      const { id } = await invoiceFor(seller.testScope);
      await expect.poll(async () => (await load(id)).offlineDeadline, { timeout: 20_000 }).not.toBeNull();
      const deadline = (await load(id)).offlineDeadline!;
      expect(await offlineSummary(t.db(), seller.testScope, new Date(deadline.getTime() - 3_600_000))).toMatchObject({ waiting: 1, atRisk: 1, missed: 0 });
      expect(await markMissedDeadlines(t.db(), new Date(deadline.getTime() - 1))).not.toContain(id);
      expect(await markMissedDeadlines(t.db(), new Date(deadline.getTime() + 1))).toContain(id);
      expect(await offlineSummary(t.db(), seller.testScope, new Date(deadline.getTime() + 1))).toMatchObject({ waiting: 1, missed: 1 });
      expect(serializeDocument(await load(id)).offline).toMatchObject({ deadline_missed: true, deadline: Math.floor(deadline.getTime() / 1000) });
    } finally {
      await ksef.control().clearFaults();
    }
    const { id } = (await t.db().select({ id: documents.id }).from(documents).where(eq(documents.accountId, seller.accountId)))[0]!;
    const done = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error'], 30_000);
    expect(done).toMatchObject({ status: 'accepted', offlineDeadlineMissed: true });
  });

  test('technical correction: an offline document rejected for a technical reason is re-sent with hashOfCorrectedInvoice', async () => {
    const seller = await sealedSeller();
    await uploadRsaOfflineCertificate(seller);
    await setOfflinePolicy(t.db(), seller.testScope, { policy: 'always', delaySeconds: 300 });
    await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'reject', rejectCode: 450, rejectDetail: 'Błąd schematu (wymuszony).', times: 1 }]);
    const { id } = await invoiceFor(seller.testScope);
    const rejected = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error'], 30_000);
    await ksef.control().clearFaults();
    expect(rejected).toMatchObject({ status: 'rejected', lastError: { code: 'ksef_rejected', ksef_code: 450 } });
    const originalHash = rejected.xmlSha256!;
    const originalKodI = kodIUrl({ environment: 'test', sellerNip: seller.nip, issueDate: rejected.issueDate!, xml: rejected.fa3Xml! });

    await correctTechnically(t.db(), seller.testScope, id);
    const done = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error'], 30_000);
    expect(done.status).toBe('accepted');
    expect(done).toMatchObject({ correctedInvoiceHash: originalHash, number: rejected.number, issueDate: rejected.issueDate });
    expect(serializeDocument(done).offline).toMatchObject({ technical_correction_of: originalHash });
    expect((await timeline(t.db(), id)).slice(-4)).toEqual(['rejected:ksef_rejected', 'queued', 'sending', 'accepted']);
    expect(await ksef.control().verifyQr(originalKodI)).toMatchObject({ status: 'TechnicallyCorrected', ksefNumber: done.ksefNumber });
    await expect(correctTechnically(t.db(), seller.testScope, id)).rejects.toThrow(/No such document/);
  });
});
