import { describe, expect, test } from 'vitest';
import type { DocumentRow } from '../documents/document-row';
import { parseOrderInput } from '../orders/order-schema';
import { mapShopplatformOrder } from '../orders/woocommerce/map-order';
import { mapShopplatformRefund } from '../orders/woocommerce/map-refund';
import { fixtureOrder4817, fixtureRefund4822, readFixture, wcOrder4830Eur } from '../orders/woocommerce/wc-test-payloads';
import { paidOrder } from '../../test/orders';
import { buildDocumentView } from './document-view';
import { readIssuedFacts } from './issued-facts';
import { correction4822View, invoice4817View, invoice4830EurView } from './sample-views';
import { ZDocumentView } from './view-model';

const xml4817 = readFixture('fa3-vat-pln-order-4817.xml');
const xml4822 = readFixture('fa3-kor-pln-refund-4822.xml');
const xml4830 = readFixture('fa3-vat-eur-order-4830.xml');

/** A document row as the pipeline leaves an accepted one; only what the view reads matters. */
function row(over: Partial<DocumentRow>): DocumentRow {
  return {
    id: 'inv_test', accountId: 'acct_test', mode: 'test', kind: 'invoice', status: 'accepted', invoiceId: null,
    orderExternalId: 'x', refundExternalId: null, orderNumber: null, number: null, ksefNumber: null, ksefEnvironment: 'test',
    issueDate: null, currency: null, totalGrossGrosze: null, buyerNip: null, buyerEmail: null, input: {}, exchangeRate: null,
    lastError: null, fa3Xml: null, xmlSha256: null, ksefSessionRef: null, ksefInvoiceRef: null, upoXml: null, pdfToken: null,
    pdfFileId: null, mailStatus: null, mailError: null, attempts: 0, createdAt: new Date(), updatedAt: new Date(), seq: 1,
    ...over,
  };
}

const invoice4817 = row({
  number: 'FV/2026/06/0042', issueDate: '2026-06-02', ksefNumber: '5265877635-20260602-01000016B2C4-ED',
  input: mapShopplatformOrder(fixtureOrder4817()), fa3Xml: xml4817,
});

describe('buildDocumentView', () => {
  test('invoice 4817 (PLN): the worked example, seller and place of issue as in the XML, KOD I over the stored bytes', () => {
    const view = buildDocumentView({ doc: invoice4817, issued: readIssuedFacts(xml4817) });
    const expected = invoice4817View(xml4817);
    expect(view).toEqual({ ...expected, seller: { ...expected.seller, countryCode: 'PL' }, buyer: { ...expected.buyer, countryCode: 'PL' } });
    expect(ZDocumentView.safeParse(view).success).toBe(true);
  });

  test('correction 4822: difference rows, buckets of kor-mapping, the invoice reference and the reason as sent', () => {
    const refund = mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822());
    const doc = row({
      id: 'cor_test', kind: 'correction', invoiceId: invoice4817.id, number: 'KOR/2026/06/0003', issueDate: '2026-06-09',
      ksefNumber: '5265877635-20260609-0100002A41F7-87', input: refund, fa3Xml: xml4822,
    });
    const view = buildDocumentView({ doc, issued: readIssuedFacts(xml4822), original: invoice4817, earlierRefunds: [] });
    const expected = correction4822View(xml4822);
    expect(view).toEqual({
      ...expected,
      issuePlace: 'Warszawa',
      seller: { ...expected.seller, countryCode: 'PL' },
      buyer: { ...expected.buyer, countryCode: 'PL' },
    });
  });

  test('a correction after an earlier one takes the cumulative buckets', () => {
    const refund = mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822());
    const doc = row({ kind: 'correction', number: 'KOR/2026/06/0004', issueDate: '2026-06-10', ksefNumber: 'k', input: { ...refund, shippingGrosze: null, shippingRef: null }, fa3Xml: xml4822 });
    const first = mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822());
    const view = buildDocumentView({ doc, issued: readIssuedFacts(xml4822), original: invoice4817, earlierRefunds: [first] });
    // 23 % bucket 1418.98 → 1358.99 gross: VAT 265.34 → 254.12
    expect(view.vatSummary).toEqual([{ rate: 23, netGrosze: -4_877, vatGrosze: -1_122, grossGrosze: -5_999 }]);
    expect(view.rows).toHaveLength(1);
  });

  test('EUR invoice 4830: NBP rate and VAT in PLN per bucket', () => {
    const doc = row({
      number: 'FV/2026/06/0017', issueDate: '2026-06-01', ksefNumber: '5265877635-20260601-01000019E3A0-CA',
      input: mapShopplatformOrder(wcOrder4830Eur()), fa3Xml: xml4830,
      exchangeRate: { rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' },
    });
    const view = buildDocumentView({ doc, issued: readIssuedFacts(xml4830) });
    expect(view.vatSummary).toEqual(invoice4830EurView(xml4830).vatSummary);
    expect(view.exchangeRate).toEqual({ rate: '4.2322', date: '2026-05-29', table: '103/A/NBP/2026' });
    expect(view.totals).toEqual({ netGrosze: 51_661, vatGrosze: 10_389, grossGrosze: 62_050 });
    expect(view.payment?.form).toBe('Karta');
    expect(view.taxPointDate).toBeUndefined();
  });

  test('a discount prints folded into the unit price only when that price is whole grosze', () => {
    const order = parseOrderInput(
      paidOrder({
        lines: [
          { name: 'Kubek', quantity: 2, unit_price: '49.99', discount: '5.00', vat_rate: '23' },
          { name: 'Talerz', quantity: 3, unit_price: '10.00', discount: '1.00', vat_rate: '23' },
        ],
        shipping: [],
      }),
    );
    const view = buildDocumentView({ doc: row({ number: 'FV/1', issueDate: '2026-11-20', input: order, fa3Xml: xml4817 }), issued: readIssuedFacts(xml4817) });
    expect(view.rows.map((r) => [r.unitGrossGrosze, r.discountGrosze, r.grossGrosze])).toEqual([
      [4_749, 0, 9_498],
      [1_000, 100, 2_900],
    ]);
  });

  test('refuses a document that is not numbered, or a correction whose invoice is not accepted', () => {
    const issued = readIssuedFacts(xml4822);
    expect(() => buildDocumentView({ doc: row({ input: invoice4817.input }), issued })).toThrow(/no number/);
    const cor = row({ kind: 'correction', number: 'KOR/1', issueDate: '2026-06-09', fa3Xml: xml4822, input: mapShopplatformRefund(fixtureOrder4817(), fixtureRefund4822()) });
    expect(() => buildDocumentView({ doc: cor, issued, original: { ...invoice4817, ksefNumber: null } })).toThrow(/not accepted/);
  });
});

describe('readIssuedFacts', () => {
  test('seller, place of issue and reason from the XML', () => {
    expect(readIssuedFacts(xml4822)).toEqual({
      seller: {
        nip: '5265877635', name: 'Kawowy Świat Sp. z o.o.', address1: 'ul. Marszałkowska 100/5', address2: '00-026 Warszawa', countryCode: 'PL',
        email: 'faktury@kawowyswiat.example.pl', phone: '+48 22 123 45 67',
      },
      issuePlace: 'Warszawa',
      correctionReason: 'Zwrot towaru: 1 szt. dzbanka (uszkodzony w transporcie) oraz zwrot kosztów dostawy',
      totals: { netGrosze: -6_503, vatGrosze: -1_496, grossGrosze: -7_999 },
    });
    const facts = readIssuedFacts(xml4830);
    expect(facts.correctionReason).toBeNull();
    expect(facts.seller).toMatchObject({ email: null, phone: null });
    expect(facts.totals).toEqual({ netGrosze: 41_707 + 9_954, vatGrosze: 9_593 + 796, grossGrosze: 62_050 });
  });

  test('decodes escaped text', () => {
    const xml = xml4817.replace('<Nazwa>Kawowy Świat Sp. z o.o.</Nazwa>', '<Nazwa>Kawa &amp; Herbata &lt;Sp. j.&gt;</Nazwa>');
    expect(readIssuedFacts(xml).seller.name).toBe('Kawa & Herbata <Sp. j.>');
  });
});
