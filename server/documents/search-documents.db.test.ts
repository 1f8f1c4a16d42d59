import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { useTestDatabase } from '@/test/db';
import { createTestAccount } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import type { Scope } from '@/server/db/scope';
import { DOCUMENT_HAYSTACK, documents } from '@/server/db/schema';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { createInvoiceDocument } from './create-invoice';
import { documentsCsv } from './documents-csv';
import { listDocumentsForExport } from './list-documents-for-export';
import { prepareDocument } from './prepare-document';
import { searchDocuments, type SearchDocumentsInput } from './search-documents';

const t = useTestDatabase();

let a: Scope;
const ids: Record<string, string> = {};
const ORLEN = { nip: '7740001454', name: 'Hurtownia Zielona S.A.', address_line1: 'ul. Chemików 7', address_line2: '09-411 Płock', email: 'h@example.test' };

async function invoice(scope: Scope, name: string, overrides: Record<string, unknown> = {}) {
  const order = paidOrder({ external_id: `order-${name}`, ...overrides });
  ids[name] = (await createInvoiceDocument(t.db(), scope, parseOrderInput(order))).document.id;
  return order;
}
const numberedOn = (name: string, day: string) => prepareDocument(t.db(), ids[name]!, new Date(`${day}T10:00:00Z`));

beforeAll(async () => {
  const account = await createTestAccount(t.db());
  a = account.testScope;
  const other = (await createTestAccount(t.db())).testScope;
  // numbered by the real prepare step, on the days given (issue date = the day it is numbered)
  const kupiec = await invoice(a, 'kupiec-1');
  await numberedOn('kupiec-1', '2026-11-20');
  await invoice(a, 'zielona-2', { buyer: ORLEN });
  await numberedOn('zielona-2', '2026-11-22');
  await invoice(a, 'pending-3', { buyer: { ...ORLEN, name: 'Zielona Łąka sp.j.' } }); // not numbered: no date, no amounts
  const refund = parseRefundInput({
    external_id: 'refund-1',
    lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
  });
  ids['correction'] = (await createCorrectionDocument(t.db(), a, ids['kupiec-1']!, refund)).document.id;
  await prepareDocument(t.db(), ids['correction']!, new Date('2026-11-25T10:00:00Z'));
  // ten more so numbers reach FV/2026/11/11 (a text sort would put /10 and /11 before /2)
  for (let i = 0; i < 9; i++) {
    await invoice(a, `bulk-${i}`);
    await numberedOn(`bulk-${i}`, '2026-11-26');
  }
  // a EUR invoice as numbered: its amounts set directly, the NBP rate is not what this file tests
  await invoice(a, 'eur-1', { currency: 'EUR', buyer: { ...kupiec.buyer, name: 'Euro Kunde GmbH' } });
  await t
    .db()
    .update(documents)
    .set({
      status: 'accepted',
      number: 'FV/2026/11/99',
      issueDate: '2026-11-27',
      currency: 'EUR',
      totalNetGrosze: 10000,
      totalVatGrosze: 2300,
      totalGrossGrosze: 12300,
    })
    .where(eq(documents.id, ids['eur-1']!));
  // the same buyer in another account and in live mode: never listed
  await invoice(other, 'other-account');
  await invoice({ accountId: a.accountId, mode: 'live' }, 'live-mode');
});

const search = (input: Partial<SearchDocumentsInput> = {}) => searchDocuments(t.db(), a, { pageSize: 100, ...input });
const names = async (input: Partial<SearchDocumentsInput> = {}) => {
  const byId = new Map(Object.entries(ids).map(([k, v]) => [v, k]));
  return (await search(input)).rows.map((r) => byId.get(r.id));
};

describe('search', () => {
  test('by buyer name: any part, any case, also before the document is numbered', async () => {
    expect((await names({ query: 'zielona' })).sort()).toEqual(['pending-3', 'zielona-2']);
    expect(await names({ query: 'ŁĄKA' })).toEqual(['pending-3']);
  });

  test('by NIP typed any way; a correction is found by its invoice buyer', async () => {
    expect((await names({ query: 'PL 774-000-14-54' })).sort()).toEqual(['pending-3', 'zielona-2']);
    expect(await names({ query: '526-025', kind: 'correction' })).toEqual(['correction']);
  });

  test('by number, KSeF number and order id', async () => {
    const [zielona] = await t.db().select().from(documents).where(eq(documents.id, ids['zielona-2']!));
    expect(await names({ query: zielona!.number! })).toEqual(['zielona-2']);
    await t.db().update(documents).set({ ksefNumber: '5260250274-20261122-0A1B2C3D4E5F-7A' }).where(eq(documents.id, ids['zielona-2']!));
    expect(await names({ query: '0a1b2c3d' })).toEqual(['zielona-2']);
    expect(await names({ query: 'order-bulk-7' })).toEqual(['bulk-7']);
    // LIKE's own characters are searched for, not interpreted
    expect(await names({ query: '%' })).toEqual([]);
  });

  test('the search uses the trigram index', async () => {
    const plan = await t.db().transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return tx.execute<{ 'QUERY PLAN': string }>(sql`explain select id from documents where ${DOCUMENT_HAYSTACK} ilike '%zielona%'`);
    });
    expect(plan.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/documents_haystack_trgm_idx/);
  });
});

describe('filters', () => {
  test('kind', async () => {
    expect(await names({ kind: 'correction' })).toEqual(['correction']);
    expect((await search({ kind: 'invoice' })).total).toBe(13);
  });

  test('status', async () => {
    expect(await names({ status: 'pending' })).toEqual(['pending-3']);
    expect(await names({ status: 'accepted' })).toEqual(['eur-1']);
  });

  test('issue date range, both ends inclusive; an unnumbered document has no date', async () => {
    expect((await names({ from: '2026-11-20', to: '2026-11-22' })).sort()).toEqual(['kupiec-1', 'zielona-2']);
    expect(await names({ from: '2026-11-25', to: '2026-11-25' })).toEqual(['correction']);
    expect((await search({ from: '2026-11-01' })).total).toBe(13);
  });

  test('another account or mode never appears', async () => {
    expect((await search()).total).toBe(14);
    expect(await names({ query: 'other-account' })).toEqual([]);
    expect(await names({ query: 'live-mode' })).toEqual([]);
  });
});

describe('sorts', () => {
  test('by number: months, then series, then the counter as a number', async () => {
    const rows = (await search({ sort: 'number', dir: 'asc', kind: 'invoice', status: 'queued' })).rows.map((r) => r.number);
    expect(rows).toEqual(Array.from({ length: 11 }, (_, i) => `FV/2026/11/${i + 1}`));
    const desc = (await search({ sort: 'number', dir: 'desc' })).rows.map((r) => r.number);
    expect(desc.slice(0, 3)).toEqual([null, 'KOR/2026/11/1', 'FV/2026/11/99']);
  });

  test('by issue date, ties in creation order', async () => {
    const asc = await names({ sort: 'date', dir: 'asc' });
    expect(asc.slice(0, 3)).toEqual(['kupiec-1', 'zielona-2', 'correction']);
    expect(asc.at(-1)).toBe('pending-3');
    expect((await names({ sort: 'date', dir: 'desc', status: 'queued' })).slice(0, 2)).toEqual(['bulk-8', 'bulk-7']);
  });

  test('pages do not overlap', async () => {
    const first = await search({ sort: 'date', pageSize: 5, page: 1 });
    const second = await search({ sort: 'date', pageSize: 5, page: 2 });
    expect(new Set([...first.rows, ...second.rows].map((r) => r.id)).size).toBe(10);
  });
});

test('totals per currency of what the filters select', async () => {
  const all = await search();
  const pln = all.totals.find((c) => c.currency === 'PLN')!;
  expect(all.totals.map((c) => c.currency)).toEqual(['EUR', 'PLN']);
  expect(all.totals[0]).toEqual({ currency: 'EUR', documents: 1, netGrosze: 10000, vatGrosze: 2300, grossGrosze: 12300 });
  // 11 invoices of paidOrder (gross 149.88: 2 × 49.99 − 5.00 + 39.90 + 15.00) and a correction returning one mug (−47.49)
  expect(pln.documents).toBe(12);
  expect(pln.grossGrosze).toBe(11 * 14988 - 4749);
  expect(pln.netGrosze + pln.vatGrosze).toBe(pln.grossGrosze);
  expect((await search({ kind: 'correction' })).totals).toEqual([{ currency: 'PLN', documents: 1, netGrosze: -3861, vatGrosze: -888, grossGrosze: -4749 }]);
  expect((await search({ status: 'pending' })).totals).toEqual([]);
});

test('CSV export: the filtered list in table order, for Polish Excel', async () => {
  const rows = await listDocumentsForExport(t.db(), a, { query: 'kupiec', sort: 'date', dir: 'asc' });
  const headers = {
    number: 'Numer',
    kind: 'Rodzaj',
    status: 'Status',
    issueDate: 'Data',
    order: 'Zamówienie',
    buyerName: 'Nabywca',
    buyerNip: 'NIP',
    currency: 'Waluta',
    net: 'Netto',
    vat: 'VAT',
    gross: 'Brutto',
    ksefNumber: 'KSeF',
  };
  const csv = documentsCsv(rows, headers, { kind: (k) => k, status: (s) => s });
  expect(csv.startsWith('\uFEFFNumer;Rodzaj;Status;Data;Zamówienie;Nabywca;NIP;Waluta;Netto;VAT;Brutto;KSeF\r\n')).toBe(true);
  const lines = csv.slice(1).trimEnd().split('\r\n');
  expect(lines).toHaveLength(rows.length + 1);
  expect(lines[1]).toBe('FV/2026/11/1;invoice;queued;2026-11-20;order-kupiec-1;Kupiec sp. z o.o.;5260250274;PLN;127,41;22,47;149,88;');
  expect(lines[2]).toBe('KOR/2026/11/1;correction;queued;2026-11-25;order-kupiec-1;Kupiec sp. z o.o.;5260250274;PLN;-38,61;-8,88;-47,49;');
  expect(lines.slice(3).every((l) => l.includes(';order-bulk-'))).toBe(true);
  expect(await listDocumentsForExport(t.db(), a, { query: 'other-account' })).toEqual([]);
});

test('CSV cells: separators quoted, formulas defused', () => {
  const row = {
    kind: 'invoice',
    status: 'accepted',
    number: null,
    orderExternalId: '=HYPERLINK("x")',
    ksefNumber: null,
    buyerName: 'A; "B"',
    buyerNip: null,
    issueDate: null,
    currency: null,
    totalNetGrosze: null,
    totalVatGrosze: null,
    totalGrossGrosze: -5,
  };
  const headers = {
    number: 'n',
    kind: 'k',
    status: 's',
    issueDate: 'd',
    order: 'o',
    buyerName: 'b',
    buyerNip: 'p',
    currency: 'c',
    net: 'x',
    vat: 'v',
    gross: 'g',
    ksefNumber: 'f',
  };
  const line = documentsCsv([row], headers, { kind: (k) => k, status: (s) => s }).split('\r\n')[1];
  expect(line).toBe(`;invoice;accepted;;"'=HYPERLINK(""x"")";"A; ""B""";;;;;-0,05;`);
});
