import { TRPCError } from '@trpc/server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSmtpSink, type SinkMessage, type SmtpSink } from '@/emulators/smtp/server';
import { useTestDatabase } from '@/test/db';
import { paidOrder } from '@/test/orders';
import { useWorker } from '@/test/pipeline';
import { acceptInvite, INVITE_TTL_MS, previewInvite } from '@/server/accounts/invites';
import { verifySignIn } from '@/server/auth/sign-in';
import { resetConfig } from '@/server/config';
import { documents, invites } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { closeMailTransports } from '@/server/mail/send-mail';
import { parseOrderInput } from '@/server/orders/order-schema';
import { serveDocumentFile } from './download-file';
import { createCallerFactory } from './init';
import { appRouter } from './root';

const t = useTestDatabase();
const caller = createCallerFactory(appRouter);
const PASSWORD = 'long enough password';
const SELLER = { nip: '526-025-02-74', name: 'Sklep sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' };

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  process.env.PUBLIC_BASE_URL = 'https://relay.example.test';
  resetConfig();
});
afterAll(async () => {
  closeMailTransports();
  await sink.close();
  delete process.env.PUBLIC_BASE_URL;
  resetConfig();
});
useWorker(t.url, { tasks: 'invite_mail' });

const anonymous = () => caller({ db: t.db(), userId: null, mode: 'test' });
const as = (userId: string, accountId: string | null = null) => caller({ db: t.db(), userId, mode: 'test', accountId });

async function signedUp(email: string) {
  const created = await anonymous().auth.signUp({ email, password: PASSWORD });
  const user = await verifySignIn(t.db(), email, PASSWORD);
  return { ...created, userId: user!.id, as: (accountId: string | null = null) => as(user!.id, accountId) };
}

/** The call's tRPC code and, for the service's own errors, its code: `FORBIDDEN role_forbidden`. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => {
      if (!(e instanceof TRPCError)) return String(e);
      const cause = e.cause as { code?: string } | undefined;
      return cause?.code ? `${e.code} ${cause.code}` : e.code;
    },
  );

/** The invitation link of the `nth` e-mail to `to`, as the SMTP emulator received it. */
async function invitationLink(to: string, nth = 1): Promise<{ mail: SinkMessage; token: string }> {
  const inbox = async () => (await (await fetch(`${sink.httpUrl}/messages?to=${encodeURIComponent(to)}`)).json()) as SinkMessage[];
  await expect.poll(async () => (await inbox()).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(nth);
  const mail = (await inbox())[nth - 1]!;
  const token = /https:\/\/relay\.example\.test\/invite\/([0-9A-Za-z]+)/.exec(mail.text)?.[1];
  expect(token).toBeDefined();
  return { mail, token: token! };
}

async function withAccountant(prefix: string) {
  const owner = await signedUp(`${prefix}-owner@example.test`);
  await owner.as().account.updateSeller(SELLER);
  const email = `${prefix}-accountant@example.test`;
  await owner.as().members.invite({ email, role: 'accountant' });
  const { mail, token } = await invitationLink(email);
  const joined = await anonymous().invites.signUp({ token, password: PASSWORD });
  const user = await verifySignIn(t.db(), email, PASSWORD);
  return { owner, accountant: { userId: user!.id, as: () => as(user!.id), email: joined.email }, mail, token };
}

describe('a seat for the accountant (issue 34)', () => {
  test('invite → e-mail at the SMTP emulator → sign-up → the accountant reads documents and downloads their files', async () => {
    const { owner, accountant, mail, token } = await withAccountant('flow');
    expect(mail.subject).toContain('invitation');
    expect(mail.text).toContain('accountant (documents, registers and archives, read-only)');
    // only the token's hash is at rest
    const [row] = await t.db().select().from(invites).where(eq(invites.email, accountant.email));
    expect(row!.tokenHash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
    // the link is one-time
    expect(await outcome(anonymous().invites.preview({ token }))).toBe('NOT_FOUND invite_invalid');

    const me = await accountant.as().account.me();
    expect(me).toMatchObject({ accountId: owner.accountId, role: 'accountant' });
    const { document } = await createInvoiceDocument(t.db(), { accountId: owner.accountId, mode: 'test' }, parseOrderInput(paidOrder()));
    expect((await accountant.as().invoices.search({ page: 1, pageSize: 20 })).rows.map((r) => r.id)).toEqual([document.id]);
    const detail = await accountant.as().invoices.detail({ id: document.id });
    expect(detail.document.id).toBe(document.id);
    expect(detail.deliveries).toBeNull(); // the webhook log names the owner's endpoints
    expect((await owner.as().invoices.detail({ id: document.id })).deliveries).toEqual([]);
    expect(await outcome(accountant.as().events.list({}))).toBe('ok');
    expect(await outcome(accountant.as().account.overview())).toBe('ok');
    expect(await outcome(accountant.as().offline.summary())).toBe('ok');

    // the XML is built at sending (server/submission/document-xml.ts); stored here, the route's authorization is the subject
    await t.db().update(documents).set({ fa3Xml: '<Faktura>test</Faktura>' }).where(eq(documents.id, document.id));
    const xml = await serveDocumentFile(t.db(), { userId: accountant.userId, mode: 'test' }, document.id, 'xml');
    expect(xml.status).toBe(200);
    expect(await xml.text()).toContain('<Faktura');
    // the PDF link answers as for the owner: not rendered yet, never refused
    expect((await serveDocumentFile(t.db(), { userId: accountant.userId, mode: 'test' }, document.id, 'pdf')).status).toBe(409);
    expect((await serveDocumentFile(t.db(), { userId: null, mode: 'test' }, document.id, 'xml')).status).toBe(401);
  });

  test('the accountant is refused every key, secret, credential, setting, sending write and members call, and nothing is stored', async () => {
    const { owner, accountant } = await withAccountant('refused');
    const a = accountant.as();
    const { document } = await createInvoiceDocument(t.db(), { accountId: owner.accountId, mode: 'test' }, parseOrderInput(paidOrder()));
    const endpoint = await owner.as().webhooks.create({ url: 'http://127.0.0.1:9/ksef', enabled_events: ['invoice.accepted'] });
    const keysBefore = await owner.as().apiKeys.list();
    const refusals: Record<string, Promise<unknown>> = {
      'apiKeys.list': a.apiKeys.list(),
      'apiKeys.create': a.apiKeys.create(),
      'apiKeys.revoke': a.apiKeys.revoke({ id: keysBefore[0]!.id }),
      'webhooks.list': a.webhooks.list(),
      'webhooks.get': a.webhooks.get({ id: endpoint.id }),
      'webhooks.create': a.webhooks.create({ url: 'http://127.0.0.1:9/other', enabled_events: ['invoice.accepted'] }),
      'webhooks.delete': a.webhooks.delete({ id: endpoint.id }),
      'webhooks.deliveries': a.webhooks.deliveries({ endpointId: endpoint.id }),
      'webhooks.resend': a.webhooks.resend({ eventId: 'evt_x', endpointId: endpoint.id }),
      'ksef.status': a.ksef.status(),
      'ksef.saveToken': a.ksef.saveToken({ token: 'a-token-of-some-length' }),
      'ksef.saveCertificate': a.ksef.saveCertificate({ format: 'pem', certificatePem: 'x', privateKeyPem: 'y' }),
      'ksef.testConnection': a.ksef.testConnection(),
      'ksef.connectEmulator': a.ksef.connectEmulator(),
      'offline.status': a.offline.status(),
      'offline.uploadCertificate': a.offline.uploadCertificate({ format: 'pem', certificatePem: 'x', privateKeyPem: 'y' }),
      'offline.enrol': a.offline.enrol(),
      'offline.setPolicy': a.offline.setPolicy({ policy: 'always', delaySeconds: 300 }),
      'offline.technicalCorrection': a.offline.technicalCorrection({ id: document.id }),
      'account.seller': a.account.seller(),
      'account.updateSeller': a.account.updateSeller({ ...SELLER, name: 'Inna nazwa' }),
      'stores.status': a.stores.status(),
      'stores.connect': a.stores.connect({ url: 'https://shop.example.test', consumerKey: 'ck_x', consumerSecret: 'cs_x' }),
      'stores.settings': a.stores.settings({ id: 'st_x' }),
      'stores.disconnect': a.stores.disconnect({ id: 'st_x' }),
      'stores.sync': a.stores.sync({ id: 'st_x' }),
      'invoices.correctionForm': a.invoices.correctionForm({ invoiceId: document.id }),
      'invoices.createCorrection': a.invoices.createCorrection({ invoiceId: document.id, refund: {} }),
      'members.list': a.members.list(),
      'members.invite': a.members.invite({ email: 'someone@example.test', role: 'owner' }),
      'members.revokeInvite': a.members.revokeInvite({ id: 'mi_x' }),
      'members.changeRole': a.members.changeRole({ userId: accountant.userId, role: 'owner' }),
      'members.remove': a.members.remove({ userId: owner.userId }),
    };
    const outcomes = Object.fromEntries(await Promise.all(Object.entries(refusals).map(async ([name, p]) => [name, await outcome(p)])));
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(refusals).map((name) => [name, 'FORBIDDEN role_forbidden'])));

    expect(await owner.as().apiKeys.list()).toEqual(keysBefore);
    expect((await owner.as().webhooks.list()).map((w) => w.url)).toEqual([endpoint.url]);
    expect((await owner.as().account.seller()).name).toBe(SELLER.name);
    expect((await owner.as().members.list()).members.map((m) => m.role)).toEqual(['owner', 'accountant']);
  });

  test('invitations: revoked, expired or reused links refused; a signed-in user accepts only their own and switches accounts', async () => {
    const owner = await signedUp('life-owner@example.test');
    const other = await signedUp('life-other@example.test');
    expect(await outcome(owner.as().members.invite({ email: 'LIFE-OWNER@example.test', role: 'owner' }))).toBe('CONFLICT already_member');

    // a newer invitation of the same address replaces the open one; a revoked one is refused
    await owner.as().members.invite({ email: 'life-x@example.test', role: 'owner' });
    const first = (await invitationLink('life-x@example.test')).token;
    await owner.as().members.invite({ email: 'life-x@example.test', role: 'accountant' });
    expect(await outcome(anonymous().invites.preview({ token: first }))).toBe('NOT_FOUND invite_invalid');
    const [open] = (await owner.as().members.list()).invites;
    expect(open).toMatchObject({ email: 'life-x@example.test', role: 'accountant', expired: false });
    const second = (await invitationLink('life-x@example.test', 2)).token;
    expect(second).not.toBe(first);
    expect(await anonymous().invites.preview({ token: second })).toEqual({
      email: 'life-x@example.test',
      role: 'accountant',
      accountEmail: 'life-owner@example.test',
    });
    await owner.as().members.revokeInvite({ id: open!.id });
    expect(await outcome(anonymous().invites.signUp({ token: second, password: PASSWORD }))).toBe('NOT_FOUND invite_invalid');
    expect((await owner.as().members.list()).invites).toEqual([]);

    // a week later the link no longer works (time passed in)
    await owner.as().members.invite({ email: 'life-other@example.test', role: 'accountant' });
    const token = (await invitationLink('life-other@example.test')).token;
    const weekLater = new Date(Date.now() + INVITE_TTL_MS + 1000);
    await expect(previewInvite(t.db(), token, weekLater)).rejects.toMatchObject({ code: 'invite_invalid' });

    // someone else's session cannot take it; a new password cannot take an existing user's address
    const stranger = await signedUp('life-stranger@example.test');
    expect(await outcome(stranger.as().invites.accept({ token }))).toBe('FORBIDDEN invite_email_mismatch');
    expect(await outcome(anonymous().invites.accept({ token }))).toBe('UNAUTHORIZED');
    expect(await outcome(anonymous().invites.signUp({ token, password: PASSWORD }))).toBe('BAD_REQUEST parameter_invalid');

    // a user with an account of their own accepts and switches between the two; a foreign account cannot be chosen
    expect(await other.as().invites.accept({ token })).toEqual({ accountId: owner.accountId, role: 'accountant' });
    expect(await outcome(other.as().invites.accept({ token }))).toBe('NOT_FOUND invite_invalid');
    expect(await other.as().account.me()).toMatchObject({ accountId: other.accountId, role: 'owner' });
    expect((await other.as().account.me()).accounts.map((a) => [a.accountId, a.role])).toEqual([
      [other.accountId, 'owner'],
      [owner.accountId, 'accountant'],
    ]);
    expect(await other.as(owner.accountId).account.me()).toMatchObject({ accountId: owner.accountId, role: 'accountant' });
    expect(await outcome(other.as(owner.accountId).apiKeys.list())).toBe('FORBIDDEN role_forbidden');
    expect(await outcome(other.as(other.accountId).apiKeys.list())).toBe('ok');
    expect(await other.as(stranger.accountId).account.me()).toMatchObject({ accountId: other.accountId });
    expect(await outcome(owner.as().members.invite({ email: 'life-other@example.test', role: 'owner' }))).toBe('CONFLICT already_member');

    // a user without an account (removed from one) signs in and accepts
    const removed = await withAccountant('removed');
    await removed.owner.as().members.remove({ userId: removed.accountant.userId });
    expect(await outcome(removed.accountant.as().account.me())).toBe('UNAUTHORIZED');
    await owner.as().members.invite({ email: removed.accountant.email, role: 'owner' });
    const again = (await invitationLink(removed.accountant.email, 2)).token;
    expect(await acceptInvite(t.db(), again, { id: removed.accountant.userId }, new Date())).toEqual({ accountId: owner.accountId, role: 'owner' });
    expect(await removed.accountant.as().account.me()).toMatchObject({ accountId: owner.accountId, role: 'owner' });
  });

  test('members: roles change, the last owner cannot be demoted or removed, a demoted owner loses the owner pages at once', async () => {
    const { owner, accountant } = await withAccountant('roles');
    expect(await outcome(owner.as().members.changeRole({ userId: owner.userId, role: 'accountant' }))).toBe('CONFLICT last_owner');
    expect(await outcome(owner.as().members.remove({ userId: owner.userId }))).toBe('CONFLICT last_owner');
    await owner.as().members.changeRole({ userId: accountant.userId, role: 'owner' });
    expect(await outcome(accountant.as().apiKeys.list())).toBe('ok');
    // with two owners, one may step down; the other is then the last
    await accountant.as().members.changeRole({ userId: owner.userId, role: 'accountant' });
    expect(await outcome(owner.as().apiKeys.list())).toBe('FORBIDDEN role_forbidden');
    expect(await outcome(accountant.as().members.remove({ userId: accountant.userId }))).toBe('CONFLICT last_owner');
    await accountant.as().members.remove({ userId: owner.userId });
    expect((await accountant.as().members.list()).members.map((m) => [m.email, m.role])).toEqual([['roles-accountant@example.test', 'owner']]);
    expect(await outcome(owner.as().account.me())).toBe('UNAUTHORIZED');
    expect(await outcome(accountant.as().members.remove({ userId: 'usr_unknown' }))).toBe('NOT_FOUND resource_missing');
  });
});
