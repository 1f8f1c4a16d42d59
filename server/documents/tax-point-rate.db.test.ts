import { afterAll, beforeAll, expect, test } from 'vitest';
import { startNbpEmulator, type NbpEmulator } from '@/emulators/nbp/server';
import { tableFor } from '@/emulators/nbp/tables';
import { resetConfig } from '@/server/config';
import { textAt, xmlTree } from '@/server/ksef/fa3/xml-tree';
import { parseOrderInput } from '@/server/orders/order-schema';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { buildDocumentXml } from './build-document-xml';
import { createInvoiceDocument } from './create-invoice';
import { loadDocument } from './load-document';
import { prepareDocument } from './prepare-document';
import { sellerOf } from './seller';

/** Issue 34: the NBP table follows the tax point (art. 19a ust. 1, art. 31a ust. 1), and so does the invoice deadline. */
const t = useTestDatabase();
let nbp: NbpEmulator;
beforeAll(async () => {
  nbp = await startNbpEmulator({ port: 0, host: '127.0.0.1' });
  process.env.NBP_BASE_URL = nbp.url;
  resetConfig();
});
afterAll(() => nbp?.close());

test('EUR delivered 20.10, paid 20.11, issued 20.11: the table of 19.10, P_14_1W at that rate, and invoice_late since 15.11', async () => {
  const acct = await createTestAccount(t.db(), { seller: VALID_SELLER });
  const order = parseOrderInput(paidOrder({ currency: 'EUR', delivered_at: '2026-10-20', paid_at: '2026-11-20T10:05:00Z' }), new Date('2026-11-20T12:00:00Z'));
  const { document } = await createInvoiceDocument(t.db(), acct.testScope, order);
  await prepareDocument(t.db(), document.id, new Date('2026-11-20T12:00:00Z'));

  const doc = (await loadDocument(t.db(), document.id))!;
  const mid = tableFor('2026-10-19')!.rates.find((r) => r.code === 'EUR')!.mid;
  expect([doc.status, doc.issueDate, doc.exchangeRate]).toEqual(['queued', '2026-11-20', expect.objectContaining({ date: '2026-10-19', rate: mid })]);
  expect(doc.warnings.map((w) => [w.code, w.message.slice(0, 36)])).toEqual([['invoice_late', 'Issued 2026-11-20, after 2026-11-15:']]);

  const xml = xmlTree(await buildDocumentXml(t.db(), doc, (await sellerOf(t.db(), acct.testScope))!, null));
  const vat = Number(textAt(xml, 'Fa/P_14_1')) * 100;
  expect(Number(textAt(xml, 'Fa/P_14_1W')) * 100).toBeCloseTo(Math.round(vat * Number(mid)), 6);
  expect(textAt(xml, 'Fa/FaWiersz/KursWaluty')).toBe(mid);
});
