import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startNbpEmulator, type NbpEmulator } from '@/emulators/nbp/server';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { resetConfig } from '@/server/config';
import { documents } from '@/server/db/schema';
import { buildFa3Document } from '@/server/ksef/fa3/build-document';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { ZNormalizedOrder } from '@/server/orders/types';
import { ensureDocumentXml } from '@/server/submission/document-xml';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { documentBeforeNumber, longestNumber } from './check-before-number';
import { createInvoiceDocument } from './create-invoice';
import type { DocumentRow } from './document-row';
import { loadDocument } from './load-document';
import { beforeNumberInput, prepareDocument } from './prepare-document';
import { sellerOf } from './seller';

/**
 * One FA(3) build path (issue 37): the XML document_prepare schema-checks before it takes a number is, with the real
 * number and creation time in place of its stand-ins, byte for byte the XML the send step builds and stores.
 */
const t = useTestDatabase();
let nbp: NbpEmulator;
beforeAll(async () => {
  nbp = await startNbpEmulator({ port: 0, host: '127.0.0.1' });
  process.env.NBP_BASE_URL = nbp.url;
  resetConfig();
});
afterAll(() => nbp?.close());

const NOW = new Date('2026-11-20T12:00:00Z');
const element = (xml: string, name: string) => new RegExp(`<${name}>[^<]*</${name}>`).exec(xml)?.[0] ?? `no ${name}`;

/** Numbers the pending document by the real prepare step; returns the XML it checked before and what the send step stores. */
async function checkedAndSent(pending: DocumentRow, original: DocumentRow | null) {
  const seller = (await sellerOf(t.db(), { accountId: pending.accountId, mode: pending.mode }))!;
  await prepareDocument(t.db(), pending.id, NOW);
  const numbered = (await loadDocument(t.db(), pending.id))!;
  expect(numbered.status).toBe('queued');
  const before = await beforeNumberInput(t.db(), {
    doc: pending,
    original,
    order: ZNormalizedOrder.parse((original ?? pending).input),
    seller,
    exchangeRate: numbered.exchangeRate as ExchangeRate | null,
    issueDate: numbered.issueDate!,
    now: NOW,
  });
  const built = await ensureDocumentXml(t.db(), numbered, seller, original);
  if (built.error) throw new Error(built.error.message);
  const sent = (await loadDocument(t.db(), pending.id))!.fa3Xml!;
  expect(sent).toBe(built.xml);
  return {
    before,
    checked: buildFa3Document(documentBeforeNumber(before)),
    withRealNumber: buildFa3Document(documentBeforeNumber(before, numbered.number!)),
    sent,
  };
}

/** The checked XML with the real number, and the sent one with the checked one's creation time (the send step writes its own). */
function expectSameBytes({ before, checked, withRealNumber, sent }: Awaited<ReturnType<typeof checkedAndSent>>) {
  expect(sent.replace(element(sent, 'DataWytworzeniaFa'), element(withRealNumber, 'DataWytworzeniaFa'))).toBe(withRealNumber);
  // what the check really validated differs from that only in P_2, the longest number of the series
  expect(checked.replace(element(checked, 'P_2'), element(withRealNumber, 'P_2'))).toBe(withRealNumber);
  expect([element(checked, 'P_2'), element(sent, 'P_2')]).toEqual([`<P_2>${longestNumber(before)}</P_2>`, expect.not.stringContaining(longestNumber(before))]);
}

test.each([
  ['PLN', {}],
  ['EUR, delivered a month before payment', { currency: 'EUR', delivered_at: '2026-10-20' }],
])('an invoice in %s: the bytes checked before numbering are the bytes sent', async (_, overrides) => {
  const acct = await createTestAccount(t.db());
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder(overrides), NOW));
  expectSameBytes(await checkedAndSent(document, null));
});

test('a correction of an accepted invoice, after an earlier one: the bytes checked before numbering are the bytes sent', async () => {
  const acct = await createTestAccount(t.db());
  const { document: invoice } = await createInvoiceDocument(t.db(), acct.testScope, parseOrderInput(paidOrder(), NOW));
  await checkedAndSent(invoice, null);
  // KSeF's acceptance, as the status step records it: the number it gave
  await t.db().update(documents).set({ status: 'accepted', ksefNumber: '5260250274-20261120-0A1B2C3D4E5F-7A' }).where(eq(documents.id, invoice.id));
  const original = (await loadDocument(t.db(), invoice.id))!;
  const refund = (id: string, quantity: number) =>
    parseRefundInput({ external_id: id, lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity, unit_price: '47.49', vat_rate: '23' }] });
  const { document: first } = await createCorrectionDocument(t.db(), acct.testScope, invoice.id, refund('r-1', 1));
  await checkedAndSent(first, original);
  const { document: second } = await createCorrectionDocument(t.db(), acct.testScope, invoice.id, refund('r-2', 1));
  expectSameBytes(await checkedAndSent(second, original));
});
