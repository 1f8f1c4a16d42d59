import { TRPCError } from '@trpc/server';
import { describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { paidOrder } from '@/test/orders';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { prepareDocument } from '@/server/documents/prepare-document';
import { parseOrderInput } from '@/server/orders/order-schema';
import { verifySignIn } from '@/server/auth/sign-in';
import { createCallerFactory } from './init';
import { appRouter } from './root';

const t = useTestDatabase();
const caller = createCallerFactory(appRouter);
const SELLER = { nip: '526-025-02-74', name: 'Sklep sp. z o.o.', address1: 'ul. Prosta 1', address2: '00-001 Warszawa' };

async function signedUp(email: string) {
  const anonymous = caller({ db: t.db(), userId: null, mode: 'test' });
  const created = await anonymous.auth.signUp({ email, password: 'long enough password' });
  const user = await verifySignIn(t.db(), email, 'long enough password');
  return { ...created, userId: user!.id, as: (mode: 'test' | 'live' = 'test') => caller({ db: t.db(), userId: user!.id, mode }) };
}

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof TRPCError ? e.code : String(e)),
  );

describe('dashboard procedures', () => {
  test('sign-up gives a test key and a user who signs in with the password only', async () => {
    const a = await signedUp('Owner@Example.test');
    expect(a.testKey).toMatch(/^sk_test_/);
    expect(await verifySignIn(t.db(), 'owner@example.test', 'wrong password')).toBeNull();
    expect(await code(caller({ db: t.db(), userId: null, mode: 'test' }).auth.signUp({ email: 'owner@example.test', password: 'another long one' }))).toBe(
      'BAD_REQUEST',
    );
  });

  test('procedures need a session; live mode is early access until enabled', async () => {
    expect(await code(caller({ db: t.db(), userId: null, mode: 'test' }).account.overview())).toBe('UNAUTHORIZED');
    const a = await signedUp('live@example.test');
    expect(await code(a.as('live').account.overview())).toBe('FORBIDDEN');
    expect((await a.as('live').account.me()).liveEnabled).toBe(false);
  });

  test('seller data: checksum refused, saving completes the checklist step', async () => {
    const a = await signedUp('seller@example.test');
    expect(await code(a.as().account.updateSeller({ ...SELLER, nip: '5260250275' }))).toBe('BAD_REQUEST');
    expect((await a.as().account.overview()).checklist.find((s) => s.step === 'seller')?.done).toBe(false);
    expect(await a.as().account.updateSeller(SELLER)).toEqual({ configured: true });
    expect(await a.as().account.seller()).toMatchObject({ nip: '5260250274', configured: true });
    expect((await a.as().account.overview()).checklist.find((s) => s.step === 'seller')?.done).toBe(true);
    expect((await a.as('live').account.me()).mode).toBe('live'); // the other mode keeps its own seller data
  });

  test('invoice detail: a document skipped for seller data offers a retry; the retry sends it back to pending once', async () => {
    const a = await signedUp('retry@example.test');
    const b = await signedUp('retry-other@example.test');
    const { document } = await createInvoiceDocument(t.db(), { accountId: a.accountId, mode: 'test' }, parseOrderInput(paidOrder()));
    expect((await a.as().invoices.detail({ id: document.id })).retryable).toBe(false); // pending: on its way
    await prepareDocument(t.db(), document.id); // no seller data yet
    const skipped = await a.as().invoices.detail({ id: document.id });
    expect([skipped.document.status, skipped.document.last_error?.code, skipped.retryable]).toEqual(['skipped', 'seller_not_configured', true]);
    expect(await code(b.as().invoices.retry({ id: document.id }))).toBe('NOT_FOUND');
    await a.as().account.updateSeller(SELLER);
    expect(await a.as().invoices.retry({ id: document.id })).toEqual({ id: document.id, status: 'pending' });
    expect(await code(a.as().invoices.retry({ id: document.id }))).toBe('CONFLICT');
    await prepareDocument(t.db(), document.id);
    const numbered = await a.as().invoices.detail({ id: document.id });
    expect([numbered.document.status, numbered.document.number, numbered.retryable]).toEqual(['queued', expect.stringMatching(/^FV\/\d{4}\/\d{2}\/1$/), false]);
  });

  test('invoices: search, counts and detail stay inside the account and mode (invariant 5)', async () => {
    const a = await signedUp('a@example.test');
    const b = await signedUp('b@example.test');
    const order = paidOrder();
    const { document } = await createInvoiceDocument(t.db(), { accountId: a.accountId, mode: 'test' }, parseOrderInput(order));
    const found = await a.as().invoices.search({ query: order.external_id.slice(6, 14), page: 1, pageSize: 20 });
    expect(found.rows.map((r) => r.id)).toEqual([document.id]);
    expect((await a.as().invoices.search({ query: '526-025-02-74', page: 1, pageSize: 20 })).total).toBe(1);
    expect((await a.as().invoices.search({ status: 'accepted', page: 1, pageSize: 20 })).total).toBe(0);
    expect((await a.as().account.overview()).counts.pending).toBe(1);
    const detail = await a.as().invoices.detail({ id: document.id });
    expect(detail.timeline.map((s) => (s.kind === 'status' ? s.to : s.kind))).toEqual(['pending']);
    expect(detail.order?.lines).toHaveLength(2);
    expect(await code(b.as().invoices.detail({ id: document.id }))).toBe('NOT_FOUND');
    expect((await b.as().invoices.search({ page: 1, pageSize: 20 })).total).toBe(0);
    expect((await b.as().account.overview()).counts.pending).toBe(0);
  });

  test('API keys: listed per mode, created once in full, revoked by id of the own account only', async () => {
    const a = await signedUp('keys@example.test');
    const b = await signedUp('other@example.test');
    const created = await a.as().apiKeys.create();
    expect(created.key.startsWith(created.prefix)).toBe(true);
    const list = await a.as().apiKeys.list();
    expect(list).toHaveLength(2);
    expect(JSON.stringify(list)).not.toContain(created.key);
    expect(await code(b.as().apiKeys.revoke({ id: created.id }))).toBe('NOT_FOUND');
    await a.as().apiKeys.revoke({ id: created.id });
    expect(await a.as().apiKeys.list()).toHaveLength(1);
  });

  test('API keys: named at creation and renamed; a blank or overlong name is refused', async () => {
    const a = await signedUp('named@example.test');
    const b = await signedUp('named-other@example.test');
    const created = await a.as().apiKeys.create({ name: '  Sklep WooCommerce ' });
    const named = async () => (await a.as().apiKeys.list()).find((k) => k.id === created.id)?.name;
    expect(await named()).toBe('Sklep WooCommerce');
    await a.as().apiKeys.rename({ id: created.id, name: 'ERP' });
    expect(await named()).toBe('ERP');
    expect(await code(a.as().apiKeys.rename({ id: created.id, name: '   ' }))).toBe('BAD_REQUEST');
    expect(await code(a.as().apiKeys.create({ name: 'x'.repeat(61) }))).toBe('BAD_REQUEST');
    expect(await code(b.as().apiKeys.rename({ id: created.id, name: 'B' }))).toBe('NOT_FOUND');
    expect(await named()).toBe('ERP');
  });
});
