import { expect, test } from 'vitest';
import { mapShopplatformOrder } from '@/server/orders/woocommerce/map-order';
import { fixtureOrder4817 } from '@/test/fixtures/wc-payloads';
import { buildInvoiceXml } from './build-invoice';
import { readAnnotations } from './read-annotations';

const SELLER = { nip: '5265877635', name: 'Kawowy Świat Sp. z o.o.', address1: 'ul. Marszałkowska 100/5', address2: '00-026 Warszawa' };

test.each([true, false])('reads back the P_16 an invoice was issued with (cash method %s)', (cashAccounting) => {
  const xml = buildInvoiceXml({
    seller: { ...SELLER, cashAccounting },
    order: mapShopplatformOrder(fixtureOrder4817()),
    number: 'FV/2026/06/0042',
    issueDate: '2026-06-02',
    systemInfo: 'test',
  });
  expect(readAnnotations(xml)).toEqual({ cashAccounting, splitPayment: false });
});

test('an XML without Adnotacje is refused, not read as "no"', () => {
  expect(() => readAnnotations('<Faktura><Fa><P_2>1</P_2></Fa></Faktura>')).toThrow(/P_16 is missing/);
});
