import { X509Certificate } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { createTestCertificate } from '@/emulators/ksef/self-signed-certificate';
import { randomNip } from '@/emulators/ksef/testing';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import type { Scope } from '@/server/db/scope';
import { inScope } from '@/server/db/scope';
import {
  accountModes,
  documents,
  events,
  ksefWarnings,
  numberCounters,
  storeConnections,
  storeWebhooks,
  webhookDeliveries,
  webhookEndpoints,
} from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { newId } from '@/server/ids';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { parseOrderInput } from '@/server/orders/order-schema';
import { sealJson } from '@/server/security/sealed-json';
import { findAttention, listAttention } from './find-attention';

const t = useTestDatabase();
const NOW = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(NOW.getTime() + ms);

async function scopes() {
  const acct = await createTestAccount(t.db());
  return { test: acct.testScope, live: { accountId: acct.accountId, mode: 'live' as const } };
}

async function doc(scope: Scope, patch: Partial<typeof documents.$inferInsert>) {
  const { document } = await createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder()));
  await t.db().update(documents).set(patch).where(eq(documents.id, document.id));
  return document.id;
}

const kinds = async (scope: Scope, now = NOW) => (await listAttention(t.db(), scope, now)).map((e) => [e.kind, e.count]);

describe('attention conditions', () => {
  test('a new account needs nothing', async () => {
    const s = await scopes();
    expect(await kinds(s.test)).toEqual([]);
    expect(await kinds(s.live)).toEqual([]);
  });

  test('documents in error and rejected within 30 days, each counted with its link; other scopes unaffected', async () => {
    const s = await scopes();
    const other = await scopes();
    await doc(s.test, { status: 'error', updatedAt: at(-HOUR) });
    await doc(s.test, { status: 'error', updatedAt: at(-29 * DAY) });
    await doc(s.test, { status: 'error', updatedAt: at(-31 * DAY) });
    await doc(s.test, { status: 'rejected', updatedAt: at(-DAY) });
    await doc(s.test, { status: 'accepted', updatedAt: at(-HOUR) });
    await doc(other.test, { status: 'error', updatedAt: at(-HOUR) });
    const list = await listAttention(t.db(), s.test, NOW);
    expect(list).toEqual([
      { kind: 'documents_error', count: 2, href: '/dashboard/invoices?status=error' },
      { kind: 'documents_rejected', count: 1, href: '/dashboard/invoices?status=rejected' },
    ]);
    expect(await kinds(s.live)).toEqual([]);
  });

  test('offline documents without a KSeF number: deadline within 6 hours or past, not the later ones nor numbered ones', async () => {
    const s = await scopes();
    const offline = { offlineMode: true, status: 'queued' as const };
    await doc(s.test, { ...offline, offlineDeadline: at(5 * HOUR) });
    await doc(s.test, { ...offline, offlineDeadline: at(-HOUR), offlineDeadlineMissed: true });
    await doc(s.test, { ...offline, offlineDeadline: at(7 * HOUR) });
    await doc(s.test, { ...offline, status: 'accepted', ksefNumber: '5260250274-20261120-0100001A2B3C-D4', offlineDeadline: at(HOUR) });
    await doc(s.test, { ...offline, status: 'skipped', offlineDeadline: at(HOUR) });
    expect(await kinds(s.test)).toEqual([['offline_deadline', 2]]);
    expect(await kinds(s.test, at(2 * HOUR))).toEqual([['offline_deadline', 3]]);
  });

  test('webhook endpoints whose latest delivery failed after two retries or for the last time; a later success clears it', async () => {
    const s = await scopes();
    const endpoint = async (status: 'enabled' | 'disabled' = 'enabled') => {
      const id = newId('we');
      await t
        .db()
        .insert(webhookEndpoints)
        .values({ id, ...s.test, url: 'https://example.test/hook', enabledEvents: ['*'], secret: sealJson('whsec_x'), status });
      return id;
    };
    const eventId = newId('evt');
    await t
      .db()
      .insert(events)
      .values({ id: eventId, ...s.test, type: 'invoice.accepted', documentId: 'inv_x', body: '{}' });
    const attempt = (endpointId: string, attempt: number, delivered: 'yes' | 'no', when: Date, nextAttemptAt: Date | null = null) =>
      t.db().insert(webhookDeliveries).values({ eventId, endpointId, attempt, delivered, at: when, nextAttemptAt });

    const failing = await endpoint();
    await attempt(failing, 2, 'no', at(-HOUR), at(HOUR));
    await attempt(failing, 3, 'no', at(-HOUR), at(2 * HOUR));
    const retrying = await endpoint();
    await attempt(retrying, 1, 'no', at(-HOUR), at(HOUR)); // first failure, retry due: not yet
    const givenUp = await endpoint();
    await attempt(givenUp, 9, 'no', at(-2 * DAY));
    const recovered = await endpoint();
    await attempt(recovered, 4, 'no', at(-2 * HOUR), at(HOUR));
    await attempt(recovered, 5, 'yes', at(-HOUR));
    const old = await endpoint();
    await attempt(old, 9, 'no', at(-8 * DAY));
    const disabled = await endpoint('disabled');
    await attempt(disabled, 9, 'no', at(-HOUR));
    expect(await kinds(s.test)).toEqual([['webhooks_failing', 2]]);
  });

  test('a connected store whose last reconciliation failed or one of whose webhooks is not active; disconnected ones are not', async () => {
    const s = await scopes();
    const store = async (scope: Scope, patch: Partial<typeof storeConnections.$inferInsert>) => {
      const id = newId('st');
      await t
        .db()
        .insert(storeConnections)
        .values({ id, ...scope, url: 'https://shop.example.test/', credentials: sealJson({}), status: 'connected', ...patch });
      return id;
    };
    await store(s.test, { lastSyncResult: { orders: 0, invoiced: 0, corrected: 0, webhooks: [], error: 'connect ECONNREFUSED' } });
    expect(await kinds(s.test)).toEqual([['store_failing', 1]]);
    const live = await store(s.live, { lastSyncResult: { orders: 3, invoiced: 3, corrected: 0, webhooks: [] } });
    expect(await kinds(s.live)).toEqual([]);
    await t
      .db()
      .insert(storeWebhooks)
      .values({ storeId: live, remoteId: 7, topic: 'order.updated', secret: sealJson('s'), status: 'disabled' });
    expect(await kinds(s.live)).toEqual([['store_failing', 1]]);
    await t.db().update(storeConnections).set({ status: 'disconnected' }).where(eq(storeConnections.id, live));
    expect(await kinds(s.live)).toEqual([]);
  });

  test('KSeF credentials: a failing check with a saved credential; certificates expiring within 30 days or expired', async () => {
    const s = await scopes();
    const set = (scope: Scope, patch: Partial<typeof accountModes.$inferInsert>) => t.db().update(accountModes).set(patch).where(inScope(accountModes, scope));
    // no credential: the setup checklist's step, not an alert
    expect(await kinds(s.test)).toEqual([]);
    await set(s.test, { ksefCredential: sealJson({ kind: 'token', token: 't' }), ksefCheckError: 'not checked yet' });
    expect(await kinds(s.test)).toEqual([]);
    await set(s.test, { ksefCheckError: 'KSeF authentication failed (21301)' });
    expect(await kinds(s.test)).toEqual([['ksef_credentials_failing', 1]]);
    await set(s.test, { ksefCheckError: null, ksefConnected: true, ksefCredentialValidTo: at(31 * DAY) });
    expect(await kinds(s.test)).toEqual([]);
    await set(s.test, { ksefCredentialValidTo: at(29 * DAY), offlineCertificate: sealJson({}), offlineCertificateValidTo: at(-DAY) });
    expect(await kinds(s.test)).toEqual([['ksef_credentials_expiring', 2]]);
    await set(s.test, { ksefCredentialValidTo: at(90 * DAY) });
    expect(await kinds(s.test)).toEqual([['ksef_credentials_expiring', 1]]);
  });

  test("a saved login certificate's notAfter is what the expiry condition reads; a token has none", async () => {
    const s = await scopes();
    const cert = await createTestCertificate({ nip: '5260250274' });
    await saveKsefCredential(t.db(), s.test, { kind: 'certificate', certificatePem: cert.certificatePem, privateKeyPem: cert.privateKeyPem });
    const validTo = new Date(new X509Certificate(cert.certificatePem).validTo);
    expect(await kinds(s.test, new Date(validTo.getTime() - 31 * DAY))).toEqual([]);
    expect(await kinds(s.test, new Date(validTo.getTime() - 29 * DAY))).toEqual([['ksef_credentials_expiring', 1]]);
    await saveKsefCredential(t.db(), s.test, { kind: 'token', token: 'a-token' });
    expect(await kinds(s.test, new Date(validTo.getTime() - 29 * DAY))).toEqual([]);
  });

  test('KSeF warnings of the seller context: three within 24 h make an entry, older ones and other contexts do not count', async () => {
    const s = await scopes();
    // test accounts share one seller NIP; the warnings are the context's, so this account gets a NIP of its own
    await t.db().update(accountModes).set({ sellerNip: randomNip() }).where(inScope(accountModes, s.test));
    const [m] = await t.db().select().from(accountModes).where(inScope(accountModes, s.test));
    const warn = (context: string, ms: number) =>
      t
        .db()
        .insert(ksefWarnings)
        .values({ environment: m!.ksefEnvironment, context, method: 'POST', path: '/sessions/online/x/invoices', status: 202, message: 'w', at: at(ms) });
    await warn(m!.sellerNip!, -HOUR);
    await warn(m!.sellerNip!, -2 * HOUR);
    await warn(m!.sellerNip!, -25 * HOUR);
    await warn('0000000000', -HOUR);
    expect(await kinds(s.test)).toEqual([]);
    await warn(m!.sellerNip!, -3 * HOUR);
    expect(await listAttention(t.db(), s.test, NOW)).toEqual([{ kind: 'ksef_warnings_repeating', count: 3, href: '/dashboard/invoices' }]);
  });

  test('the live plan at 80 % of its monthly limit (Warsaw month), with the limit; test mode never', async () => {
    const s = await scopes();
    await t.db().update(accountModes).set({ monthlyLimit: 100 }).where(inScope(accountModes, s.live));
    await t
      .db()
      .insert(numberCounters)
      .values({ ...s.live, series: 'FV', period: '2026-11', value: 79 });
    await t
      .db()
      .insert(numberCounters)
      .values({ ...s.test, series: 'FV', period: '2026-11', value: 500 });
    expect(await kinds(s.live)).toEqual([]);
    await t.db().update(numberCounters).set({ value: 80 }).where(inScope(numberCounters, s.live));
    expect(await listAttention(t.db(), s.live, NOW)).toEqual([{ kind: 'plan_limit_near', count: 80, limit: 100, href: null }]);
    // 23:30 UTC on 30 November is already December in Warsaw: a new month, nothing issued
    expect(await kinds(s.live, new Date('2026-11-30T23:30:00Z'))).toEqual([]);
    expect(await kinds(s.test)).toEqual([]);
  });

  test('every account and mode at once, grouped, in the table order', async () => {
    const a = await scopes();
    const b = await scopes();
    await doc(a.test, { status: 'rejected', updatedAt: at(-HOUR) });
    await doc(a.test, { status: 'error', updatedAt: at(-HOUR) });
    await doc(b.test, { status: 'error', updatedAt: at(-HOUR) });
    const all = await findAttention(t.db(), NOW);
    const mine = all.filter((x) => [a.test.accountId, b.test.accountId].includes(x.accountId));
    expect(mine.map((x) => [x.accountId, x.mode, x.entries.map((e) => e.kind)])).toEqual(
      expect.arrayContaining([
        [a.test.accountId, 'test', ['documents_error', 'documents_rejected']],
        [b.test.accountId, 'test', ['documents_error']],
      ]),
    );
    expect(mine).toHaveLength(2);
  });
});
