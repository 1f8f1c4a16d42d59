import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { buildCorrectionXml } from '@/server/ksef/fa3/build-correction';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { paidOrder } from '@/test/orders';
import { registerCsvHeader, registerCsvLine } from './register-csv';
import { readRegisterFacts } from './register-facts';
import { buildRegisterRow, type RegisterSource } from './register-row';

const SELLER = {
  nip: '5265877635',
  name: 'Kawowy Świat Sp. z o.o.',
  address1: 'ul. Marszałkowska 100/5',
  address2: '00-026 Warszawa',
  email: null,
  phone: null,
};
const KSEF = '5265877635-20261127-0100A0B1C2D3-4E';
const order = parseOrderInput(paidOrder({ buyer: { ...paidOrder().buyer, name: 'Zażółć "gęślą"; jaźń sp. z o.o.' } }), new Date('2026-11-27T12:00:00Z'));
const src = (over: Partial<RegisterSource>): RegisterSource => ({
  id: 'inv_1',
  kind: 'invoice',
  ksefNumber: KSEF,
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

const SOFFICE = ['/usr/bin/soffice', '/usr/bin/libreoffice'].find((p) => existsSync(p));

/**
 * The CSV opened by LibreOffice Calc the way a Polish user's does (separator `;`, `"` quotes, UTF-8, Polish locale:
 * CSV filter options 59,34,76,1,,1045) and saved as HTML, where a cell Calc took as a number carries `sdval`.
 * Runs where LibreOffice is installed (Debian: libreoffice-calc-nogui).
 */
test.skipIf(!SOFFICE)('LibreOffice Calc reads the register: Polish letters, quotes and `;` inside a name, amounts as numbers', { timeout: 120_000 }, () => {
  const invoice = buildInvoiceXml({ seller: SELLER, order, number: 'FV/2026/11/7', documentId: 'inv_1', issueDate: '2026-11-27', systemInfo: 'test' });
  const correction = buildCorrectionXml({
    seller: SELLER,
    original: {
      order,
      number: 'FV/2026/11/7',
      issueDate: '2026-11-27',
      ksefNumber: KSEF,
      annotations: { cashAccounting: false, splitPayment: false },
      documentId: 'inv_1',
    },
    earlierRefunds: [],
    refund: parseRefundInput({ external_id: 'r-1', lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }] }),
    number: 'KOR/2026/11/1',
    documentId: 'cor_1',
    issueDate: '2026-11-28',
    systemInfo: 'test',
  });
  const csv =
    registerCsvHeader() +
    registerCsvLine(1, buildRegisterRow(src({}), readRegisterFacts(invoice))) +
    registerCsvLine(2, buildRegisterRow(src({ id: 'cor_1', kind: 'correction', ksefNumber: null, invoiceId: 'inv_1' }), readRegisterFacts(correction)));
  const dir = mkdtempSync(path.join(tmpdir(), 'register-csv-'));
  writeFileSync(path.join(dir, 'rejestr.csv'), csv);
  execFileSync(
    SOFFICE!,
    [
      '--headless',
      `-env:UserInstallation=file://${dir}/profile`,
      '--infilter=CSV:59,34,76,1,,1045',
      '--convert-to',
      'html',
      '--outdir',
      dir,
      path.join(dir, 'rejestr.csv'),
    ],
    {
      stdio: 'ignore',
    },
  );
  const rows = readFileSync(path.join(dir, 'rejestr.html'), 'utf8')
    .split(/<tr[^>]*>/)
    .slice(1)
    .map((tr) =>
      [...tr.matchAll(/<td([^>]*)>([\s\S]*?)<\/td>/g)].map(([, attrs, inner]) => ({
        number: /sdval="([^"]+)"/.exec(attrs!)?.[1],
        text: inner!.replace(/<[^>]+>/g, ''),
      })),
    );
  const [header, inv, cor] = rows as [(typeof rows)[0], (typeof rows)[0], (typeof rows)[0]];
  const at = (row: typeof header, name: string) => row[header.findIndex((c) => c.text === name)]!;
  expect(header.map((c) => c.text)).toContain('Data sprzedaży');
  expect(at(inv, 'Nazwa nabywcy').text.replace(/&quot;/g, '"')).toBe('Zażółć "gęślą"; jaźń sp. z o.o.');
  expect(['Netto 23%', 'VAT 23%', 'Netto 5%', 'Brutto'].map((n) => at(inv, n).number)).toEqual(['89.41', '20.57', '38', '149.88']);
  expect(['Netto 23%', 'VAT 23%', 'Brutto PLN'].map((n) => at(cor, n).number)).toEqual(['-38.61', '-8.88', '-47.49']);
  expect([at(inv, 'Numer KSeF lub oznaczenie').text, at(cor, 'Numer KSeF lub oznaczenie').text]).toEqual([KSEF, 'DI']);
  expect(at(cor, 'Faktura korygowana').text).toBe('FV/2026/11/7');
});
