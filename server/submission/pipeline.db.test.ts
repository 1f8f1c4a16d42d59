import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startNbpEmulator } from '@/emulators/nbp/server';
import { resetConfig } from '@/server/config';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { timeline, useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { randomNip } from '@/emulators/ksef/testing';
import { updateSeller, getAccountMode } from '@/server/accounts/account-settings';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { isValidKsefNumber } from '@/server/ksef/ksef-number';
import { createTestCertificate } from '@/emulators/ksef/self-signed-certificate';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { enqueue } from '@/server/jobs/enqueue';

const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);

/** A seller with its own random NIP (the emulator keeps duplicates per NIP), connected to the emulator. */
async function connectedSeller(options: { connect?: boolean } = {}) {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  if (options.connect !== false) await ksef.connect(t.db(), acct.testScope, nip);
  return { ...acct, nip };
}

const invoiceFor = (scope: { accountId: string; mode: 'test' }, overrides: Record<string, unknown> = {}) =>
  createInvoiceDocument(t.db(), scope, parseOrderInput(paidOrder(overrides))).then((r) => r.document);

const refundOf = (overrides: Record<string, unknown> = {}) =>
  parseRefundInput({
    external_id: `r-${Math.random().toString(36).slice(2)}`,
    lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
    ...overrides,
  });

const eventsOf = async (documentId: string) =>
  (await t.db().execute<{ type: string }>(sql`select type from events where document_id = ${documentId} order by seq`)).map((e) => e.type);

describe('state table (spec 3)', () => {
  test('pending → queued → sending → accepted: number, KSeF number, UPO, event, PDF job', async () => {
    const seller = await connectedSeller();
    const doc = await invoiceFor(seller.testScope);
    const done = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error', 'skipped']);
    expect(done.status).toBe('accepted');
    expect(done.number).toMatch(/^FV\/\d{4}\/\d{2}\/1$/);
    expect(isValidKsefNumber(done.ksefNumber!)).toBe(true);
    expect(done.ksefNumber!.startsWith(seller.nip)).toBe(true);
    expect(done.upoXml).toContain('NumerKSeFDokumentu');
    expect(done.totalGrossGrosze).toBe(9498 + 3990 + 1500);
    expect(await timeline(t.db(), doc.id)).toEqual(['pending', 'queued', 'sending', 'accepted']);
    expect(await eventsOf(doc.id)).toEqual(['invoice.accepted']);
    // the PDF step was queued with the acceptance and renders shortly after
    await expect.poll(async () => (await waitForStatus(t.db(), doc.id, ['accepted'])).pdfFileId, { timeout: 15_000 }).not.toBeNull();
    const mode = await getAccountMode(t.db(), seller.testScope);
    expect(mode.mode).toMatchObject({ ksefConnected: true, ksefCheckError: null });
  });

  test('certificate (XAdES) authentication with a self-signed test certificate', async () => {
    const seller = await connectedSeller({ connect: false });
    const cert = await createTestCertificate({ nip: seller.nip });
    await saveKsefCredential(t.db(), seller.testScope, { kind: 'certificate', certificatePem: cert.certificatePem, privateKeyPem: cert.privateKeyPem });
    const doc = await invoiceFor(seller.testScope);
    expect((await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error'])).status).toBe('accepted');
  });

  test('seller not configured: skipped with seller_not_configured and invoice.skipped', async () => {
    const acct = await createTestAccount(t.db(), { seller: null });
    const doc = await invoiceFor(acct.testScope);
    const done = await waitForStatus(t.db(), doc.id, ['skipped', 'accepted', 'error']);
    expect(done.status).toBe('skipped');
    expect(done.lastError).toMatchObject({ code: 'seller_not_configured', type: 'invoice_error' });
    expect(done.number).toBeNull();
    expect(await eventsOf(doc.id)).toEqual(['invoice.skipped']);
  });

  test('no credentials: queued with ksef_not_connected, resumed when credentials are saved', async () => {
    const seller = await connectedSeller({ connect: false });
    const doc = await invoiceFor(seller.testScope);
    await expect.poll(async () => (await waitForStatus(t.db(), doc.id, ['queued'])).lastError?.code, { timeout: 10_000 }).toBe('ksef_not_connected');
    await ksef.connect(t.db(), seller.testScope, seller.nip);
    const done = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error']);
    expect(done.status).toBe('accepted');
    expect(await timeline(t.db(), doc.id)).toEqual(['pending', 'queued', 'queued:ksef_not_connected', 'sending', 'accepted']);
  });

  test('refused credentials: queued with ksef_auth_failed and the account says why', async () => {
    const seller = await connectedSeller({ connect: false });
    await saveKsefCredential(t.db(), seller.testScope, { kind: 'token', token: 'not-a-token-ksef-knows' });
    const doc = await invoiceFor(seller.testScope);
    await expect.poll(async () => (await waitForStatus(t.db(), doc.id, ['queued'])).lastError?.code, { timeout: 10_000 }).toBe('ksef_auth_failed');
    const { mode } = await getAccountMode(t.db(), seller.testScope);
    expect(mode.ksefConnected).toBe(false);
    expect(mode.ksefCheckError).toMatch(/authentication failed/i);
  });

  test('KSeF unavailable (HTML 502 twice): queued with ksef_unavailable, retried, then accepted', async () => {
    const seller = await connectedSeller();
    await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'html502', probability: 1, times: 2 }]);
    try {
      const doc = await invoiceFor(seller.testScope);
      const done = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error'], 30_000);
      expect(done.status).toBe('accepted');
      const steps = await timeline(t.db(), doc.id);
      expect(steps.filter((s) => s === 'queued:ksef_unavailable')).toHaveLength(2);
      expect(steps.at(-1)).toBe('accepted');
    } finally {
      await ksef.control().clearFaults();
    }
  });

  test("KSeF rejects (450): rejected with ksef_rejected, ksef_code and KSeF's text; event", async () => {
    const seller = await connectedSeller();
    await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'reject', probability: 1, times: 1, rejectCode: 450, rejectDetail: 'Błąd weryfikacji' }]);
    try {
      const doc = await invoiceFor(seller.testScope);
      const done = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error']);
      expect(done.status).toBe('rejected');
      expect(done.lastError).toMatchObject({ code: 'ksef_rejected', type: 'ksef_error', ksef_code: 450 });
      expect(done.number).not.toBeNull();
      expect(await eventsOf(doc.id)).toEqual(['invoice.rejected']);
    } finally {
      await ksef.control().clearFaults();
    }
  });

  test('another invoice of the seller already has the number: 440 gives ksef_duplicate_number', async () => {
    const nip = randomNip();
    const first = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
    const second = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
    await ksef.connect(t.db(), first.testScope, nip);
    await ksef.connect(t.db(), second.testScope, nip);
    const a = await invoiceFor(first.testScope);
    expect((await waitForStatus(t.db(), a.id, ['accepted', 'rejected', 'error'])).status).toBe('accepted');
    // a different invoice under the same number (identical bytes would be the same invoice, see the next test)
    const b = await invoiceFor(second.testScope, { lines: [{ name: 'Inny towar', quantity: 1, unit_price: '10.00', vat_rate: '23' }] });
    const done = await waitForStatus(t.db(), b.id, ['accepted', 'rejected', 'error']);
    expect(done.status).toBe('rejected');
    expect(done.lastError).toMatchObject({ code: 'ksef_duplicate_number', ksef_code: 440 });
  });

  test('our own XML sent again (the reference lost in a crash) is reconciled to accepted with the original number', async () => {
    const seller = await connectedSeller();
    const doc = await invoiceFor(seller.testScope);
    const first = await waitForStatus(t.db(), doc.id, ['accepted']);
    // the state a crash right after sending leaves when the session could not be asked: no reference, new session
    await t
      .db()
      .execute(sql`update documents set status = 'queued', ksef_number = null, ksef_invoice_ref = null, ksef_session_ref = null where id = ${doc.id}`);
    await t.db().execute(sql`update ksef_sessions set status = 'closed' where account_id = ${seller.accountId}`);
    await enqueue(t.db(), 'ksef_send', seller.testScope);
    await new Promise((r) => setTimeout(r, 200));
    const again = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected']);
    expect(again.status).toBe('accepted');
    expect(again.ksefNumber).toBe(first.ksefNumber);
  });
});

describe('corrections', () => {
  test("a correction waits for its original, then is accepted with the original's KSeF number in the XML", async () => {
    const seller = await connectedSeller();
    const inv = await invoiceFor(seller.testScope);
    const { document: cor } = await createCorrectionDocument(t.db(), seller.testScope, inv.id, refundOf());
    const original = await waitForStatus(t.db(), inv.id, ['accepted']);
    const done = await waitForStatus(t.db(), cor.id, ['accepted', 'rejected', 'error', 'skipped']);
    expect(done.status).toBe('accepted');
    expect(done.number).toMatch(/^KOR\/\d{4}\/\d{2}\/1$/);
    expect(done.fa3Xml).toContain(`<NrKSeFFaKorygowanej>${original.ksefNumber}</NrKSeFFaKorygowanej>`);
    expect(done.totalGrossGrosze).toBe(-4749);
    expect(await eventsOf(cor.id)).toEqual(['correction.accepted']);
  });

  test('the original rejected: the correction is skipped with original_rejected', async () => {
    const seller = await connectedSeller();
    await ksef.control().setFaults([{ endpoint: 'sendInvoice', kind: 'reject', probability: 1, times: 1, rejectCode: 450 }]);
    try {
      const inv = await invoiceFor(seller.testScope);
      const { document: cor } = await createCorrectionDocument(t.db(), seller.testScope, inv.id, refundOf());
      expect((await waitForStatus(t.db(), inv.id, ['rejected', 'accepted'])).status).toBe('rejected');
      const done = await waitForStatus(t.db(), cor.id, ['skipped', 'accepted', 'rejected']);
      expect(done.status).toBe('skipped');
      expect(done.lastError).toMatchObject({ code: 'original_rejected' });
      expect(await eventsOf(cor.id)).toEqual(['correction.skipped']);
    } finally {
      await ksef.control().clearFaults();
    }
  });

  test('the original skipped: the correction is skipped with original_not_invoiced', async () => {
    const acct = await createTestAccount(t.db(), { seller: null });
    const inv = await invoiceFor(acct.testScope);
    await waitForStatus(t.db(), inv.id, ['skipped']);
    await updateSeller(t.db(), acct.testScope, VALID_SELLER);
    const { document: cor } = await createCorrectionDocument(t.db(), acct.testScope, inv.id, refundOf());
    const done = await waitForStatus(t.db(), cor.id, ['skipped', 'accepted']);
    expect(done.lastError).toMatchObject({ code: 'original_not_invoiced' });
  });
});

test('numbers are gapless per month and series under concurrency', async () => {
  const seller = await connectedSeller();
  const docs = await Promise.all(Array.from({ length: 20 }, () => invoiceFor(seller.testScope)));
  const done = await Promise.all(docs.map((d) => waitForStatus(t.db(), d.id, ['accepted', 'rejected', 'error'], 40_000)));
  expect(done.every((d) => d.status === 'accepted')).toBe(true);
  const numbers = done.map((d) => Number(d.number!.split('/')[3])).sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
}, 60_000);

describe('foreign currency', () => {
  let nbp: Awaited<ReturnType<typeof startNbpEmulator>> | undefined;
  beforeAll(async () => {
    nbp = await startNbpEmulator({ port: 0, host: '127.0.0.1' });
    process.env.NBP_BASE_URL = nbp.url;
    resetConfig();
  });
  afterAll(() => nbp?.close());
  const setNbpFault = (fault: 'error' | 'none') =>
    fetch(`${nbp!.url.replace(/\/api$/, '')}/__control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fault }) });

  test('an EUR invoice takes the NBP table A rate of the last working day before paid_at', async () => {
    const seller = await connectedSeller();
    const doc = await invoiceFor(seller.testScope, { currency: 'EUR', paid_at: '2026-05-30T10:00:00Z' });
    const done = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error']);
    expect(done.status).toBe('accepted');
    expect(done.exchangeRate).toMatchObject({ date: '2026-05-29', rate: '4.2322' });
    expect(done.fa3Xml).toContain('<KodWaluty>EUR</KodWaluty>');
    expect(done.fa3Xml).toContain('<KursWaluty>4.2322</KursWaluty>');
  });

  test('NBP down: the document waits unnumbered and is numbered once NBP answers, never with a guessed rate', async () => {
    const seller = await connectedSeller();
    await setNbpFault('error');
    const doc = await invoiceFor(seller.testScope, { currency: 'USD', paid_at: '2026-06-10T10:00:00Z' });
    await new Promise((r) => setTimeout(r, 1500));
    const waiting = await waitForStatus(t.db(), doc.id, ['pending']);
    expect(waiting.number).toBeNull();
    await setNbpFault('none');
    const done = await waitForStatus(t.db(), doc.id, ['accepted', 'rejected', 'error'], 30_000);
    expect(done.status).toBe('accepted');
    expect(done.exchangeRate).toMatchObject({ date: '2026-06-09' });
  }, 40_000);
});
