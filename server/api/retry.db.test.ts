import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { updateSeller } from '@/server/accounts/account-settings';
import { accountModes, documents, numberCounters } from '@/server/db/schema';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { timeline, useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { startWeb, type RunningProcess } from '@/test/web';

/**
 * Issue 31 through /v1 and the worker: seller data that cannot make an invoice costs no number, and the document
 * is recovered once the data is fixed, by POST /v1/invoices/{id}/retry.
 */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);
let web: RunningProcess;
beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
}, 60_000);
afterAll(() => web?.stop());

const BAD_NIP = '7010002137'; // the probe's NIP: its check digit would be 9, not 7

async function seller() {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  await ksef.connect(t.db(), acct.testScope, nip);
  return { ...acct, nip, api: apiClient(web.url, acct.testKey) };
}

/** Seller data as an older CLI stored it: the dashboard and the CLI refuse it now. */
const storeSellerNip = (accountId: string, nip: string) => t.db().update(accountModes).set({ sellerNip: nip }).where(eq(accountModes.accountId, accountId));

const counters = async (accountId: string) => t.db().select().from(numberCounters).where(eq(numberCounters.accountId, accountId));
const final = (id: string) => waitForStatus(t.db(), id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);

describe('POST /v1/invoices/{id}/retry', () => {
  test('invalid seller NIP: skipped without a number (seller_not_configured, the reason in last_error); fixed and retried, it is accepted as FV …/1', async () => {
    const s = await seller();
    await storeSellerNip(s.accountId, BAD_NIP);
    const created = await s.api.post('/v1/invoices', { order: paidOrder() });
    expect(created.status).toBe(201);
    const skipped = await final(created.body.id);
    expect(skipped.status).toBe('skipped');
    expect(skipped.number).toBeNull();
    expect(skipped.lastError).toMatchObject({ code: 'seller_not_configured', type: 'invoice_error' });
    expect(skipped.lastError!.message).toContain(`${BAD_NIP} is not a valid Polish NIP`);
    expect(await counters(s.accountId)).toEqual([]); // no number taken

    await updateSeller(t.db(), s.testScope, { ...VALID_SELLER, nip: s.nip });
    const retried = await s.api.post(`/v1/invoices/${created.body.id}/retry`, undefined, { 'Idempotency-Key': `retry-${created.body.id}` });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: created.body.id, object: 'invoice', status: 'pending', number: null, last_error: null });
    const done = await final(created.body.id);
    expect([done.status, done.lastError]).toEqual(['accepted', null]);
    expect(done.number).toMatch(/^FV\/\d{4}\/\d{2}\/1$/);
    expect(await timeline(t.db(), created.body.id)).toEqual(['pending', 'skipped:seller_not_configured', 'pending', 'queued', 'sending', 'accepted']);

    // the same key replays the first answer; a new retry of an accepted document is a state conflict
    const replay = await s.api.post(`/v1/invoices/${created.body.id}/retry`, undefined, { 'Idempotency-Key': `retry-${created.body.id}` });
    expect([replay.status, replay.body.status]).toEqual([200, 'pending']);
    const again = await s.api.post(`/v1/invoices/${created.body.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'document_not_retryable', type: 'invalid_request_error', param: 'id' });
    expect(again.body.error.message).toContain('is accepted');
  });

  test('a numbered document in error (built after numbering before issue 31) keeps its number, goes back to queued and is sent', async () => {
    const s = await seller();
    await storeSellerNip(s.accountId, BAD_NIP);
    const created = await s.api.post('/v1/invoices', { order: paidOrder() });
    await final(created.body.id);
    // the probe's state: FV/2026/11/1 taken, then invoice_build_failed at the send step
    await t.db().execute(sql`update documents set status = 'error', number = 'FV/2026/11/1', issue_date = '2026-11-27', total_gross_grosze = 1,
      last_error = '{"type":"invoice_error","code":"invoice_build_failed","message":"seller NIP 7010002137 fails the checksum"}'::jsonb
      where id = ${created.body.id}`);
    await updateSeller(t.db(), s.testScope, { ...VALID_SELLER, nip: s.nip });
    const retried = await s.api.post(`/v1/invoices/${created.body.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'queued', number: 'FV/2026/11/1', last_error: null });
    const done = await final(created.body.id);
    expect([done.status, done.number]).toEqual(['accepted', 'FV/2026/11/1']);
  });

  test('cor_ ids: a correction skipped with its invoice is retried after it and accepted', async () => {
    const s = await seller();
    await storeSellerNip(s.accountId, BAD_NIP);
    const inv = (await s.api.post('/v1/invoices', { order: paidOrder() })).body;
    await final(inv.id);
    const refund = { external_id: `refund-${inv.id}`, lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }] };
    const cor = (await s.api.post(`/v1/invoices/${inv.id}/corrections`, { refund })).body;
    expect(cor.id).toMatch(/^cor_/);
    const corSkipped = await final(cor.id);
    expect(corSkipped.lastError?.code).toBe('seller_not_configured');

    await updateSeller(t.db(), s.testScope, { ...VALID_SELLER, nip: s.nip });
    expect((await s.api.post(`/v1/invoices/${inv.id}/retry`)).status).toBe(200);
    expect((await final(inv.id)).status).toBe('accepted');
    const retried = await s.api.post(`/v1/invoices/${cor.id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: cor.id, object: 'correction', status: 'pending' });
    const done = await final(cor.id);
    expect([done.status, done.number]).toEqual(['accepted', expect.stringMatching(/^KOR\//)]);
  });

  test('other states answer 409 document_not_retryable and change nothing; another account’s id is 404; a bad id 400', async () => {
    const s = await seller();
    const other = await seller();
    const created = await s.api.post('/v1/invoices', { order: paidOrder() });
    await final(created.body.id);
    const before = await timeline(t.db(), created.body.id);
    const refused = await s.api.post(`/v1/invoices/${created.body.id}/retry`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('document_not_retryable');
    expect(await timeline(t.db(), created.body.id)).toEqual(before);
    expect((await t.db().select({ status: documents.status }).from(documents).where(eq(documents.id, created.body.id)))[0]?.status).toBe('accepted');
    expect((await other.api.post(`/v1/invoices/${created.body.id}/retry`)).body.error.code).toBe('resource_missing');
    const bad = await s.api.post('/v1/invoices/evt_123/retry');
    expect([bad.status, bad.body.error.code, bad.body.error.param]).toEqual([400, 'parameter_invalid', 'id']);
  });
});
