import { describe, expect, test } from 'vitest';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';
import { paidOrder } from '@/test/orders';
import { safeFileName } from './archive-stream';
import { jpkKsefMark } from './jpk-marker';
import { readRegisterFacts } from './register-facts';
import { periodDates } from './period';
import { csvAmount, REGISTER_CSV_HEADER, registerCsvHeader, registerCsvLine } from './register-csv';
import { buildRegisterRow, type RegisterSource } from './register-row';
import { registerXmlRow } from './register-xml';

const SELLER = {
  nip: '5265877635',
  name: 'Kawowy Świat Sp. z o.o.',
  address1: 'ul. Marszałkowska 100/5',
  address2: '00-026 Warszawa',
  email: null,
  phone: null,
};
const EUR = { rate: '4.2322', date: '2026-11-19', table: '224/A/NBP/2026' };

const source = (over: Partial<RegisterSource> = {}): RegisterSource => ({
  id: 'inv_1',
  kind: 'invoice',
  ksefNumber: '5265877635-20261127-0100A0B1C2D3-4E',
  exchangeRate: null,
  offlineMode: false,
  offlineIssuedAt: null,
  offlineDeadline: null,
  offlineDeadlineMissed: false,
  outageMode: null,
  invoiceId: null,
  markChangedAt: new Date('2026-11-27T09:00:00Z'),
  ...over,
});

function issued(order = paidOrder(), exchangeRate?: typeof EUR) {
  const xml = buildInvoiceXml({
    seller: SELLER,
    order: parseOrderInput(order, new Date('2026-11-27T12:00:00Z')),
    number: 'FV/2026/11/7',
    documentId: 'inv_1',
    issueDate: '2026-11-27',
    exchangeRate,
    systemInfo: 'test',
  });
  return readRegisterFacts(xml);
}

describe('JPK_V7(3) mark', () => {
  test('a KSeF number wins in any mode; an offline document without one is DI (art. 106nda, 106nh ust. 1)', () => {
    expect(jpkKsefMark({ ksefNumber: 'X-1' })).toEqual({ kind: 'NrKSeF', ksefNumber: 'X-1' });
    expect(jpkKsefMark({ ksefNumber: null })).toEqual({ kind: 'DI' });
  });

  test('without a number, the marker of its mode: OFF for a failure, BFK for a total failure, DI for offline24 and unavailability', () => {
    expect(jpkKsefMark({ ksefNumber: null, outageMode: 'failure' })).toEqual({ kind: 'OFF' });
    expect(jpkKsefMark({ ksefNumber: null, outageMode: 'total_failure' })).toEqual({ kind: 'BFK' });
    expect(jpkKsefMark({ ksefNumber: null, outageMode: 'unavailable' })).toEqual({ kind: 'DI' });
    expect(jpkKsefMark({ ksefNumber: null, outageMode: 'offline24' })).toEqual({ kind: 'DI' });
    expect(jpkKsefMark({ ksefNumber: 'X-1', outageMode: 'failure' })).toEqual({ kind: 'NrKSeF', ksefNumber: 'X-1' });
  });
});

describe('register row', () => {
  test('a EUR invoice: amounts per rate in EUR and in PLN at the NBP rate, VAT in PLN as P_14_xW', () => {
    const row = buildRegisterRow(source({ exchangeRate: EUR }), issued(paidOrder({ currency: 'EUR' }), EUR));
    expect(row.currency).toBe('EUR');
    expect(row.rates.map((r) => [r.rate, r.netGrosze, r.vatGrosze, r.netPlnGrosze, r.vatPlnGrosze])).toEqual([
      [23, 8941, 2057, 37840, 8706], // 89.41 EUR × 4.2322 = 378.40 PLN; 20.57 × 4.2322 = 87.06
      [8, 0, 0, 0, 0],
      [5, 3800, 190, 16082, 804],
      [0, 0, 0, 0, 0],
    ]);
    expect([row.grossGrosze, row.grossPlnGrosze]).toEqual([14988, 37840 + 8706 + 16082 + 804]);
    expect(row.paymentDate).toBe('2026-11-20');
    expect(row.supplyDate).toBe('2026-11-20'); // P_6 as issued: the builder dates the supply by the payment
  });

  test('CSV line: quoted, `;`, decimal comma, CRLF; the header starts with the BOM', () => {
    expect(registerCsvHeader().startsWith('\uFEFF"Lp";"Rodzaj";"Numer"')).toBe(true);
    expect(registerCsvHeader().endsWith('"Id dokumentu"\r\n')).toBe(true);
    const line = registerCsvLine(1, buildRegisterRow(source({ exchangeRate: EUR }), issued(paidOrder({ currency: 'EUR' }), EUR)));
    expect(line.endsWith('\r\n')).toBe(true);
    const cells = line.slice(1, -3).split('";"');
    expect(cells).toHaveLength(REGISTER_CSV_HEADER.length);
    expect(cells.slice(0, 8)).toEqual(['1', 'faktura', 'FV/2026/11/7', '2026-11-27', '2026-11-20', '2026-11-20', '5260250274', 'Kupiec sp. z o.o.']);
    expect(cells[REGISTER_CSV_HEADER.indexOf('Kurs')]).toBe('4,2322');
    expect(cells[REGISTER_CSV_HEADER.indexOf('Numer KSeF lub oznaczenie')]).toBe('5265877635-20261127-0100A0B1C2D3-4E');
    expect(cells[REGISTER_CSV_HEADER.indexOf('Oznaczenie od')]).toBe('2026-11-27 10:00:00'); // Warsaw time
  });

  test('the sales register exports each mode with its marker and deadline (CSV column and JPK element)', () => {
    const offline = (outageMode: RegisterSource['outageMode'], deadline: Date | null) =>
      buildRegisterRow(
        source({ ksefNumber: null, offlineMode: true, offlineIssuedAt: new Date('2026-03-02T10:00:00Z'), offlineDeadline: deadline, outageMode }),
        issued(),
      );
    const cell = (row: ReturnType<typeof offline>, name: (typeof REGISTER_CSV_HEADER)[number]) =>
      registerCsvLine(1, row).slice(1, -3).split('";"')[REGISTER_CSV_HEADER.indexOf(name)];
    const failure = offline('failure', new Date('2026-03-12T22:59:59.999Z'));
    expect([cell(failure, 'Numer KSeF lub oznaczenie'), cell(failure, 'Tryb offline'), cell(failure, 'Termin przesłania do KSeF')]).toEqual([
      'OFF',
      'awaria KSeF (art. 106nf)',
      '2026-03-12 23:59:59',
    ]);
    const total = offline('total_failure', null);
    expect([cell(total, 'Numer KSeF lub oznaczenie'), cell(total, 'Tryb offline'), cell(total, 'Termin przesłania do KSeF')]).toEqual([
      'BFK',
      'awaria całkowita (art. 106ng)',
      '',
    ]);
    expect(cell(offline('unavailable', null), 'Numer KSeF lub oznaczenie')).toBe('DI');
    expect(registerXmlRow(1, failure)).toContain('<OFF>1</OFF>');
    expect(registerXmlRow(1, total)).toContain('<BFK>1</BFK>');
    expect(registerXmlRow(1, offline('unavailable', null))).toContain('<DI>1</DI>');
  });

  test.each([
    [0, '0,00'],
    [5, '0,05'],
    [-4749, '-47,49'],
    [123456789, '1234567,89'],
  ])('%d grosze → %s', (grosze, text) => expect(csvAmount(grosze)).toBe(text));

  test('XML row: schema order, NrKSeF or DI, PLN amounts with a dot', () => {
    const row = buildRegisterRow(source({ ksefNumber: null, offlineMode: true, offlineIssuedAt: new Date() }), issued());
    expect(registerXmlRow(3, row).replace(/\s+/g, '')).toBe(
      '<SprzedazWiersz><LpSprzedazy>3</LpSprzedazy><NrKontrahenta>5260250274</NrKontrahenta><NazwaKontrahenta>Kupiecsp.zo.o.</NazwaKontrahenta>' +
        '<DowodSprzedazy>FV/2026/11/7</DowodSprzedazy><DataWystawienia>2026-11-27</DataWystawienia><DataSprzedazy>2026-11-20</DataSprzedazy><DI>1</DI>' +
        '<K_15>38.00</K_15><K_16>1.90</K_16><K_19>89.41</K_19><K_20>20.57</K_20></SprzedazWiersz>',
    );
  });
});

describe('periods and file names', () => {
  test.each([
    ['2026-02', '2026-02-01', '2026-03-01'],
    ['2026-12', '2026-12-01', '2027-01-01'],
  ])('%s covers [%s, %s)', (period, from, to) => expect(periodDates(period)).toEqual({ from, to }));

  test.each([
    ['FV/2026/02/1', 'FV-2026-02-1'],
    ['KOR/2026/02/12', 'KOR-2026-02-12'],
    ['../etc/passwd', 'etc-passwd'],
  ])('%s → %s', (number, name) => expect(safeFileName(number)).toBe(name));
});
