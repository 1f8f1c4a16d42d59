import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { randomNip } from '@/emulators/ksef/testing';
import { updateSeller } from '@/server/accounts/account-settings';
import { documents } from '@/server/db/schema';
import { allAt, textAt, xmlTree } from '@/server/ksef/fa3/xml-tree';
import { validateXml } from '@/server/ksef/xsd';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { startWeb, type RunningProcess } from '@/test/web';

/** Issue 13 through /v1 and the worker: what the API refuses stores nothing and uses no number; the rest reaches KSeF. */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);
let web: RunningProcess;
beforeAll(async () => {
  web = await startWeb({ DATABASE_URL: t.url() });
}, 60_000);
afterAll(() => web?.stop());

async function seller(options: { cashAccounting?: boolean } = {}) {
  const nip = randomNip();
  const acct = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
  if (options.cashAccounting) await updateSeller(t.db(), acct.testScope, { ...VALID_SELLER, nip, cashAccounting: true });
  await ksef.connect(t.db(), acct.testScope, nip);
  return { ...acct, api: apiClient(web.url, acct.testKey) };
}

const documentCount = async (accountId: string) => (await t.db().select({ id: documents.id }).from(documents).where(eq(documents.accountId, accountId))).length;

async function accepted(id: string) {
  const doc = await waitForStatus(t.db(), id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);
  expect([doc.status, doc.lastError]).toEqual(['accepted', null]);
  expect(validateXml(doc.fa3Xml!, 'fa3')).toEqual({ ok: true });
  return { doc, xml: xmlTree(doc.fa3Xml!) };
}

describe('refused at the API: nothing stored, no number used', () => {
  test.each([
    ['paid_at a day ahead', { paid_at: new Date(Date.now() + 86_400_000).toISOString() }, 400, 'order_not_paid', 'order.paid_at'],
    [
      'an FA(3) above 1,000,000 bytes (1000 lines of markup-heavy names, a 0.5 MB body)',
      { lines: Array.from({ length: 1000 }, (_, i) => ({ name: `${'<'.repeat(300)} ${i}`, quantity: 1, unit_price: '1.00', vat_rate: '23' })) },
      422,
      'order_unprocessable',
      'order.lines',
    ],
    ['jst without the unit it concerns', { buyer: { ...paidOrder().buyer, jst: true } }, 400, 'parameter_missing', 'order.buyer.recipient'],
  ])('%s', async (_, overrides, status, code, param) => {
    const s = await seller();
    const res = await s.api.post('/v1/invoices', { order: paidOrder(overrides) });
    expect([res.status, res.body.error?.code, res.body.error?.param]).toEqual([status, code, param]);
    expect(await documentCount(s.accountId)).toBe(0);
    const next = await s.api.post('/v1/invoices', { order: paidOrder() });
    expect((await accepted(next.body.id)).doc.number).toMatch(/^FV\/\d{4}\/\d{2}\/1$/);
  });
});

describe('documents that go out with the facts that change them', () => {
  test('annex 15 above 15,000 PLN, a JST unit, a delivery date, KSeF-forbidden characters: P_18A, P_12_Zal_15, JST + Podmiot3 Rola 8, P_6', async () => {
    const s = await seller({ cashAccounting: true });
    const order = paidOrder({
      paid_at: '2026-11-20T10:05:00Z',
      delivered_at: '2026-11-18',
      buyer: {
        nip: '5260250274',
        name: 'Gmina\u0085Testowa',
        address_line1: 'ul. Długa 5',
        address_line2: '00-002 Warszawa',
        jst: true,
        recipient: { nip: '3861610227', name: 'Szkoła Podstawowa nr 1', address_line1: 'ul. Szkolna 1', address_line2: '00-003 Warszawa' },
      },
      lines: [
        { name: 'Laptop\uFDD0 Pro', quantity: 3, unit_price: '5500.00', vat_rate: '23', annex15: true },
        { name: 'Torba', quantity: 1, unit_price: '100.00', vat_rate: '23' },
      ],
    });
    const res = await s.api.post('/v1/invoices', { order });
    expect(res.status).toBe(201);
    const { doc, xml } = await accepted(res.body.id);
    expect(doc.fa3Xml).not.toMatch(/[\u0085\uFDD0]/);
    expect(
      [
        'Fa/Adnotacje/P_16',
        'Fa/Adnotacje/P_18A',
        'Fa/P_6',
        'Podmiot2/JST',
        'Podmiot2/GV',
        'Podmiot3/DaneIdentyfikacyjne/NIP',
        'Podmiot3/Rola',
        'Podmiot2/DaneIdentyfikacyjne/Nazwa',
      ].map((p) => textAt(xml, p)),
    ).toEqual(['1', '1', '2026-11-18', '1', '2', '3861610227', '8', 'Gmina Testowa']);
    expect(allAt(xml, 'Fa/FaWiersz').map((r) => [textAt(r, 'P_7'), textAt(r, 'P_12_Zal_15'), textAt(r, 'UU_ID')])).toEqual([
      ['Laptop Pro', '1', `${doc.id}-1`],
      ['Torba', null, `${doc.id}-2`],
      ['Dostawa - Kurier', null, `${doc.id}-3`],
    ]);
    expect(doc.warnings).toEqual([]);
  });

  test('paid long ago and an address without postal code and city: still invoiced, warnings on the document and the timeline', async () => {
    const s = await seller();
    const res = await s.api.post('/v1/invoices', {
      order: paidOrder({ paid_at: '2026-08-03T10:00:00Z', buyer: { nip: '5260250274', name: 'Kupiec', address_line1: 'ul. Długa 5' } }),
    });
    expect(res.status).toBe(201);
    const { doc } = await accepted(res.body.id);
    expect(doc.warnings.map((w) => w.code)).toEqual(['invoice_late', 'buyer_address_incomplete']);
    expect(doc.warnings[0]?.message).toMatch(/after 2026-09-15/);
    // the key and values travel with the English text, so the Polish dashboard says it whole (app/i18n/pl.ts)
    expect(doc.warnings[0]).toMatchObject({ text: 'invoice_late', params: { deadline: '2026-09-15' } });
    expect(doc.warnings[1]).toMatchObject({ text: 'buyer_address_incomplete', params: { address: 'ul. Długa 5' } });
    const timeline = await t
      .db()
      .execute<{ code: string; text: string }>(
        sql`select error->>'code' as code, error->>'text' as text from document_transitions where document_id = ${doc.id} and error->>'type' = 'warning' order by id`,
      );
    expect(timeline.map((r) => [r.code, r.text])).toEqual([
      ['invoice_late', 'invoice_late'],
      ['buyer_address_incomplete', 'buyer_address_incomplete'],
    ]);
  });

  test('refunds: above the invoiced unit value → 422 and no correction; a partial-value refund → a KOR with before/after rows, accepted', async () => {
    const s = await seller();
    // 2 × 49.99 with a 5.00 discount: 94.98 invoiced, 47.49 per mug
    const inv = await s.api.post('/v1/invoices', { order: paidOrder() });
    await accepted(inv.body.id);
    const line = { name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, vat_rate: '23' };
    const over = await s.api.post(`/v1/invoices/${inv.body.id}/corrections`, { refund: { external_id: 'over', lines: [{ ...line, unit_price: '49.99' }] } });
    expect([over.status, over.body.error.code, over.body.error.param]).toEqual([422, 'order_unprocessable', 'refund.lines[0].unit_price']);
    expect(
      await t
        .db()
        .select({ id: documents.id })
        .from(documents)
        .where(and(eq(documents.accountId, s.accountId), eq(documents.kind, 'correction'))),
    ).toEqual([]);

    const partial = await s.api.post(`/v1/invoices/${inv.body.id}/corrections`, {
      refund: { external_id: 'partial', reason: 'Rabat za rysę', lines: [{ ...line, unit_price: '10.00' }] },
    });
    expect(partial.status).toBe(201);
    const { doc, xml } = await accepted(partial.body.id);
    expect(doc.totalGrossGrosze).toBe(-1_000);
    expect(allAt(xml, 'Fa/FaWiersz').map((r) => ['P_8B', 'P_9B', 'P_10', 'P_11A', 'StanPrzed'].map((p) => textAt(r, p)))).toEqual([
      ['2', '49.99', '5.00', '94.98', '1'],
      ['2', '49.99', '15.00', '84.98', null],
    ]);
    // the last mugs go back at what is left of them: 84.98 / 2 = 42.49 each, written as that price, with no negative P_10
    const back = await s.api.post(`/v1/invoices/${inv.body.id}/corrections`, {
      refund: { external_id: 'back', lines: [{ ...line, quantity: 2, unit_price: '42.49' }] },
    });
    expect(back.status).toBe(201);
    const returned = await accepted(back.body.id);
    expect(allAt(returned.xml, 'Fa/FaWiersz').map((r) => ['P_8B', 'P_9B', 'P_10', 'P_11A'].map((p) => textAt(r, p)))).toEqual([
      ['-2', '42.49', null, '-84.98'],
    ]);
  });
});
