import { expect, test } from 'vitest';
import { buildCorrectionXml } from '@/server/ksef/fa3/build-correction';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { readIssuedFacts } from '@/server/pdf/issued-facts';
import { paidOrder } from '@/test/orders';
import { readRegisterFacts, type RegisterFacts } from './register-facts';

const SELLER = {
  nip: '5265877635',
  name: 'Kawowy Świat Sp. z o.o.',
  address1: 'ul. Marszałkowska 100/5',
  address2: '00-026 Warszawa',
  email: null,
  phone: null,
};
const EUR = { rate: '4.2322', date: '2026-11-19', table: '224/A/NBP/2026' };
const NOW = new Date('2026-11-27T12:00:00Z');

/** What readIssuedFacts (the full tree, the printout's reader) says of the same fields. */
function viaTree(xml: string): RegisterFacts {
  const f = readIssuedFacts(xml);
  const c = f.correction?.invoices[0];
  return {
    number: f.number,
    issueDate: f.issueDate,
    supplyDate: f.deliveryDate ?? null,
    paymentDate: f.payment?.paid ? (f.payment.date ?? null) : null,
    buyerNip: f.buyer.nip ?? null,
    buyerName: f.buyer.name,
    currency: f.currency,
    summary: f.vatSummary.map((s) => ({ field: s.field, netGrosze: s.netGrosze, vatGrosze: s.vatGrosze, vatPlnGrosze: s.vatPlnGrosze ?? null })),
    totalGrosze: f.totalGrosze,
    corrects: c ? { number: c.number, issueDate: c.issueDate, ksefNumber: c.ksefNumber ?? null } : null,
  };
}

const order = (over: Record<string, unknown> = {}) =>
  parseOrderInput(paidOrder({ buyer: { ...paidOrder().buyer, name: 'A & B <Kupiec> "sp." z o.o.' }, delivered_at: '2026-11-18', ...over }), NOW);
const invoice = (o = order(), exchangeRate?: typeof EUR) =>
  buildInvoiceXml({ seller: SELLER, order: o, number: 'FV/2026/11/7', documentId: 'inv_1', issueDate: '2026-11-27', exchangeRate, systemInfo: 'test' });

test.each([
  ['a PLN invoice with an escaped buyer name and a delivery date', () => invoice()],
  ['a EUR invoice (P_14_xW)', () => invoice(order({ currency: 'EUR' }), EUR)],
  [
    'a correction (difference rows, DaneFaKorygowanej)',
    () =>
      buildCorrectionXml({
        seller: SELLER,
        original: {
          order: order(),
          number: 'FV/2026/11/7',
          issueDate: '2026-11-27',
          ksefNumber: '5265877635-20261127-0100A0B1C2D3-4E',
          annotations: { cashAccounting: false, splitPayment: false },
          documentId: 'inv_1',
        },
        earlierRefunds: [],
        refund: parseRefundInput({ external_id: 'r-1', lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }] }),
        number: 'KOR/2026/11/1',
        documentId: 'cor_1',
        issueDate: '2026-11-28',
        systemInfo: 'test',
      }),
  ],
])('%s: the register reader and the full tree agree', (_, xml) => {
  const facts = readRegisterFacts(xml());
  expect(facts).toEqual(viaTree(xml()));
  expect(facts.summary.length).toBeGreaterThan(0);
});
