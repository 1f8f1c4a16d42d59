import { X509Certificate } from 'node:crypto';
import { expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { verifySignIn } from '@/server/auth/sign-in';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createCallerFactory } from '@/server/trpc/init';
import { appRouter } from '@/server/trpc/root';
import { loadKsefCredential } from './credentials';

const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url, { tasks: '-mail_send,-webhook_deliver' });
const caller = createCallerFactory(appRouter);

/** A newcomer signed up in the dashboard, with seller data of a fresh NIP, in test mode. */
async function newcomer() {
  const email = `${randomNip()}@example.test`;
  await caller({ db: t.db(), userId: null, mode: 'test' }).auth.signUp({ email, password: 'long enough password' });
  const user = await verifySignIn(t.db(), email, 'long enough password');
  const dashboard = caller({ db: t.db(), userId: user!.id, mode: 'test' });
  const nip = randomNip();
  await dashboard.account.updateSeller({ nip, name: 'Sklep sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' });
  const { accountId } = await dashboard.account.me();
  return { dashboard, nip, scope: { accountId, mode: 'test' as const } };
}

test(
  'test certificate credentials from the emulator: a XAdES login that enrols an Offline certificate, and a document issued offline end to end',
  { timeout: 60_000 },
  async () => {
    const { dashboard, nip, scope } = await newcomer();
    expect((await dashboard.ksef.status()).emulator).toBe(true);

    // the one-click KSeF token cannot enrol (KSeF allows enrolment only after a XAdES login)
    expect(await dashboard.ksef.connectEmulator({ kind: 'token' })).toMatchObject({ connected: true });
    const tokenOnly = await dashboard.offline.status();
    expect(tokenOnly.canEnrol).toBe(false);
    expect(tokenOnly.cannotEnrol).toBe('token_emulator');

    // the test certificate is a company seal of the seller NIP and logs in with XAdES
    expect(await dashboard.ksef.connectEmulator({ kind: 'certificate' })).toEqual({ connected: true, error: null });
    const loaded = await loadKsefCredential(t.db(), scope);
    expect(loaded?.credential).toMatchObject({ kind: 'certificate', nip, certificatePem: expect.stringContaining('BEGIN CERTIFICATE') });
    expect(await dashboard.ksef.status()).toMatchObject({ credentialKind: 'certificate', connected: true });

    expect(await dashboard.offline.status()).toMatchObject({ canEnrol: true, cannotEnrol: null });
    const enrolled = await dashboard.offline.enrol();
    expect(enrolled).toMatchObject({ state: 'done', serial: expect.stringMatching(/^[0-9A-F]{16}$/) });
    expect((await dashboard.offline.status()).certificate).toMatchObject({ state: 'valid', source: 'enrolment' });

    // offline-first: the document gets KOD II signed with the enrolled certificate before KSeF is asked, then KSeF takes it as Offline
    await dashboard.offline.setPolicy({ policy: 'always', delaySeconds: 300 });
    const order = paidOrder();
    const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput({ ...order, buyer: { ...order.buyer, email: undefined } }));
    const done = await waitForStatus(t.db(), document.id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);
    expect(done.status).toBe('accepted');
    expect(done.upoXml).toContain('<TrybWysylki>Offline</TrybWysylki>');
    expect(done.offlineKodIiUrl).not.toBeNull();
    expect(await ksef.control().verifyQr(done.offlineKodIiUrl!)).toMatchObject({
      valid: true,
      checks: { certificateValid: true, signatureValid: true },
      certificate: { serialNumber: enrolled.state === 'done' ? enrolled.serial : '', type: 'Offline' },
    });
  },
);

test('the emulator control endpoint makes a self-signed company seal of the NIP, as the test environment accepts', async () => {
  const nip = randomNip();
  const cert = await ksef.control().createCertificateCredentials(nip);
  expect(cert.privateKeyPem).toContain('BEGIN PRIVATE KEY');
  const x509 = new X509Certificate(cert.certificatePem);
  expect(x509.subject).toContain(`organizationIdentifier=VATPL-${nip}`);
  expect(x509.issuer).toBe(x509.subject);
});
