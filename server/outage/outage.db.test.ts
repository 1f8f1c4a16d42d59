import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestCertificate } from '@/emulators/ksef/self-signed-certificate';
import { randomNip } from '@/emulators/ksef/testing';
import { startSmtpSink, type SmtpSink } from '@/emulators/smtp/server';
import { resetConfig } from '@/server/config';
import { documents, ksefNotices } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { serializeDocument } from '@/server/documents/serialize-document';
import { registerDocuments } from '@/server/exports/register-query';
import { markText } from '@/server/exports/jpk-marker';
import { buildRegisterRow } from '@/server/exports/register-row';
import { readRegisterFacts } from '@/server/exports/register-facts';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { setOfflinePolicy } from '@/server/ksef-connection/offline-policy';
import { closeMailTransports } from '@/server/mail/send-mail';
import { parseOrderInput } from '@/server/orders/order-schema';
import { enrolOfflineCertificate } from '@/server/submission/enrol-offline-certificate';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { failureDeadline } from './modes';
import { addNotice, endNotice, listNotices, loadNotices } from './notices';
import { followKsefStatus } from './status-source';

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
// notices are KSeF-wide: each test starts without any
beforeEach(async () => {
  await t.db().delete(ksefNotices);
  await ksef.control().setLighthouse('AVAILABLE');
});

const statusUrl = () => `${new URL(ksef.url()).origin}/latarnia`;
const load = async (id: string) => (await t.db().select().from(documents).where(eq(documents.id, id)))[0]!;
const HOUR = 3_600_000;

/** A seller with a company seal login and an Offline certificate enrolled through the emulator, issuing offline first. */
async function offlineFirstSeller() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  const seal = await createTestCertificate({ nip });
  await saveKsefCredential(t.db(), acct.testScope, { kind: 'certificate', certificatePem: seal.certificatePem, privateKeyPem: seal.privateKeyPem });
  expect((await enrolOfflineCertificate(t.db(), acct.testScope)).state).toBe('done');
  await setOfflinePolicy(t.db(), acct.testScope, { policy: 'always', delaySeconds: 300 });
  return acct;
}

async function invoiceFor(scope: { accountId: string; mode: 'test' }) {
  const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()));
  return document.id;
}

/** The document's sales-register row as the export writes it (the month of its issue date). */
async function registerMark(scope: { accountId: string; mode: 'test' }, id: string) {
  const doc = await load(id);
  for await (const d of registerDocuments(t.db(), scope, { period: doc.issueDate!.slice(0, 7) }))
    if (d.id === id) return markText(buildRegisterRow(d, readRegisterFacts(d.fa3Xml)).mark);
  return null;
}

describe('the status service (Latarnia) through the emulator', () => {
  test('its answers open, switch and end notices; an operator notice of the same mode is left as it is', async () => {
    const t0 = new Date('2026-03-02T09:00:00Z');
    await ksef.control().setLighthouse('FAILURE', [{ id: 'm1', status: 'FAILURE', title: 'Awaria KSeF', start: t0.toISOString() }]);
    const failure = await followKsefStatus(t.db(), t0, statusUrl());
    expect(failure).toMatchObject({ status: 'FAILURE', opened: expect.any(Number) });
    expect(await followKsefStatus(t.db(), new Date(t0.getTime() + HOUR), statusUrl())).toMatchObject({ status: 'FAILURE', ended: [] });

    await ksef.control().setLighthouse('TOTAL_FAILURE');
    const total = await followKsefStatus(t.db(), new Date(t0.getTime() + 2 * HOUR), statusUrl());
    expect(total).toMatchObject({ status: 'TOTAL_FAILURE', opened: expect.any(Number), ended: [failure!.opened] });

    await ksef.control().setLighthouse('AVAILABLE');
    expect(await followKsefStatus(t.db(), new Date(t0.getTime() + 3 * HOUR), statusUrl())).toMatchObject({ status: 'AVAILABLE', ended: [total!.opened] });
    expect((await listNotices(t.db())).map((n) => [n.mode, n.source, n.startsAt.toISOString(), n.endsAt?.toISOString()])).toEqual([
      ['failure', 'status_service', '2026-03-02T09:00:00.000Z', '2026-03-02T11:00:00.000Z'],
      ['total_failure', 'status_service', '2026-03-02T11:00:00.000Z', '2026-03-02T12:00:00.000Z'],
    ]);

    // MAINTENANCE is an unavailability (art. 106nh); under an operator's notice of it nothing is opened
    await addNotice(t.db(), { mode: 'unavailable', startsAt: new Date(t0.getTime() + 4 * HOUR), source: 'operator', note: 'komunikat MF' });
    await ksef.control().setLighthouse('MAINTENANCE');
    expect(await followKsefStatus(t.db(), new Date(t0.getTime() + 5 * HOUR), statusUrl())).toEqual({ status: 'MAINTENANCE', ended: [] });
    await ksef.control().setLighthouse('AVAILABLE');
    await followKsefStatus(t.db(), new Date(t0.getTime() + 6 * HOUR), statusUrl());
    expect((await listNotices(t.db())).at(-1)).toMatchObject({ mode: 'unavailable', source: 'operator', endsAt: null });
  });

  test('an unreadable status service changes nothing; no URL, no look', async () => {
    await ksef.control().setFaults([{ endpoint: 'lighthouseStatus', kind: 'html503' }]);
    try {
      expect(await followKsefStatus(t.db(), new Date(), statusUrl())).toBeNull();
    } finally {
      await ksef.control().clearFaults();
    }
    expect(await followKsefStatus(t.db(), new Date(), '')).toBeNull();
    expect(await listNotices(t.db())).toEqual([]);
  });
});

describe('documents issued in an announced outage', () => {
  test('a failure: mode and OFF recorded, no deadline until the notice ends, 7 working days after, restarted by a new failure', async () => {
    const seller = await offlineFirstSeller();
    const notice = await addNotice(t.db(), { mode: 'failure', startsAt: new Date(Date.now() - HOUR), source: 'operator' });
    await ksef.control().setFaults([{ endpoint: '*', kind: 'html503' }]); // KSeF does not take it during the failure
    try {
      const id = await invoiceFor(seller.testScope);
      await expect.poll(async () => (await load(id)).outageMode, { timeout: 20_000 }).toBe('failure');
      expect(await load(id)).toMatchObject({ outageNoticeId: notice.id, offlineDeadline: null, offlineMode: true });
      expect(serializeDocument(await load(id)).offline).toMatchObject({ mode: 'failure', jpk_marker: 'OFF', deadline: null });
      expect(await registerMark(seller.testScope, id)).toBe('OFF');

      const end = new Date(Date.now() + HOUR);
      await endNotice(t.db(), notice.id, end);
      const expected = failureDeadline({ id: notice.id, mode: 'failure', startsAt: notice.startsAt, endsAt: end }, await loadNotices(t.db()))!;
      expect((await load(id)).offlineDeadline).toEqual(expected);

      // a new failure beginning within the count: no deadline until it ends, then 7 working days from its end
      const again = await addNotice(t.db(), { mode: 'failure', startsAt: new Date(end.getTime() + HOUR), source: 'operator' });
      expect((await load(id)).offlineDeadline).toBeNull();
      await endNotice(t.db(), again.id, new Date(end.getTime() + 2 * HOUR));
      expect((await load(id)).offlineDeadline!.getTime()).toBeGreaterThanOrEqual(expected.getTime());
    } finally {
      await ksef.control().clearFaults();
    }
  });

  test('a total failure: nothing reaches KSeF until the notice ends, then the queue goes online', async () => {
    const nip = randomNip();
    const seller = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
    await ksef.connect(t.db(), seller.testScope, nip);
    const notice = await addNotice(t.db(), {
      mode: 'total_failure',
      startsAt: new Date(Date.now() - HOUR),
      endsAt: new Date(Date.now() + 4_000),
      source: 'operator',
    });
    const id = await invoiceFor(seller.testScope);
    const done = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);
    expect(done).toMatchObject({ status: 'accepted', outageMode: null, offlineMode: false });
    // queued while the notice was in force; the first move to sending came after its end
    const [first] = await t.db().execute<{ at: Date }>(sql`select min(at) as at from document_transitions where document_id = ${id} and to_status = 'sending'`);
    expect(new Date(first!.at).getTime()).toBeGreaterThanOrEqual(notice.endsAt!.getTime());
    expect((await ksef.control().counters()).invoices.byHash[done.xmlSha256!]).toBe(1);
  });

  test('an invoice issued in a total failure stays outside KSeF: BFK, no deadline, skipped with issued_outside_ksef', async () => {
    const seller = await offlineFirstSeller();
    await addNotice(t.db(), { mode: 'total_failure', startsAt: new Date(Date.now() - HOUR), source: 'operator' });
    const id = await invoiceFor(seller.testScope);
    const done = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);
    expect(done).toMatchObject({ status: 'skipped', outageMode: 'total_failure', offlineDeadline: null, lastError: { code: 'issued_outside_ksef' } });
    expect(done.offlineIssuedAt).not.toBeNull();
    expect((await ksef.control().counters()).invoices.byHash[done.xmlSha256!]).toBeUndefined();
    expect(await registerMark(seller.testScope, id)).toBe('BFK');
  });
});
