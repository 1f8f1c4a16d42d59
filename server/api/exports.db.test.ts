import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { GET as archiveRoute } from '@/app/v1/exports/archive/route';
import { GET as registerRoute } from '@/app/v1/exports/sales-register/route';
import { createTestCertificate } from '@/emulators/ksef/self-signed-certificate';
import { randomNip } from '@/emulators/ksef/testing';
import { createCorrectionDocument } from '@/server/corrections/create-correction';
import { documents, files } from '@/server/db/schema';
import { createInvoiceDocument } from '@/server/documents/create-invoice';
import { monthSummary } from '@/server/exports/month-summary';
import { REGISTER_CSV_HEADER } from '@/server/exports/register-csv';
import { setRouteDb } from '@/server/http/route';
import { allAt, xmlTree } from '@/server/ksef/fa3/xml-tree';
import { saveKsefCredential } from '@/server/ksef-connection/credentials';
import { setOfflinePolicy } from '@/server/ksef-connection/offline-policy';
import { parseOrderInput, parseRefundInput } from '@/server/orders/order-schema';
import { enrolOfflineCertificate } from '@/server/submission/enrol-offline-certificate';
import { apiClient } from '@/test/api-client';
import { useTestDatabase } from '@/test/db';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { useKsefEmulator, useWorker, waitForStatus } from '@/test/pipeline';
import { serveRoutes } from '@/test/route-server';

/** Issue 34.1–34.3 over HTTP: the register (CSV, XML, changed_since) and the archive of a seller's month, nothing of another account. */
const t = useTestDatabase();
const ksef = useKsefEmulator();
useWorker(t.url);
let server: Awaited<ReturnType<typeof serveRoutes>>;
beforeAll(async () => {
  setRouteDb(() => t.db());
  server = await serveRoutes({ '/v1/exports/sales-register': { GET: registerRoute }, '/v1/exports/archive': { GET: archiveRoute } });
});
afterAll(() => server?.close());

const load = async (id: string) => (await t.db().select().from(documents).where(eq(documents.id, id)))[0]!;
const bytes = async (key: string, pathAndQuery: string) => {
  const res = await fetch(`${server.url}${pathAndQuery}`, { headers: { Authorization: `Bearer ${key}` } });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
};

/** The CSV as a spreadsheet reads it: BOM, then `;`-separated quoted fields, CRLF rows. */
function parseCsv(buf: Buffer): string[][] {
  expect([...buf.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const textBody = buf.subarray(3).toString('utf8');
  expect(textBody.endsWith('\r\n')).toBe(true);
  expect(textBody.replace(/\r\n/g, '')).not.toMatch(/[\r\n](?=(?:[^"]*"[^"]*")*[^"]*$)/); // no bare line ends outside quotes
  return textBody
    .slice(0, -2)
    .split('\r\n')
    .map((line) => {
      const cells = line.match(/"((?:[^"]|"")*)"(;|$)/g)!.map((c) => c.replace(/;$/, '').slice(1, -1).replace(/""/g, '"'));
      expect(cells.map((c) => `"${c.replace(/"/g, '""')}"`).join(';')).toBe(line);
      return cells;
    });
}

const KSEF_DOWN = [{ endpoint: '*', kind: 'html503' as const }];
const SALES_ROW_ORDER = [
  'LpSprzedazy',
  'NrKontrahenta',
  'NazwaKontrahenta',
  'DowodSprzedazy',
  'DataWystawienia',
  'DataSprzedazy',
  'NrKSeF',
  'DI',
  'K_13',
  'K_15',
  'K_16',
  'K_17',
  'K_18',
  'K_19',
  'K_20',
];

describe('a month with an invoice, its correction and an offline (DI) invoice', { timeout: 120_000 }, () => {
  test('register CSV and XML, changed_since after KSeF numbers the DI invoice, the archive; another account sees none of it', async () => {
    const nip = randomNip();
    const seller = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip } });
    const seal = await createTestCertificate({ nip });
    await saveKsefCredential(t.db(), seller.testScope, { kind: 'certificate', certificatePem: seal.certificatePem, privateKeyPem: seal.privateKeyPem });
    expect((await enrolOfflineCertificate(t.db(), seller.testScope)).state).toBe('done');
    const api = apiClient(server.url, seller.testKey);

    const otherNip = randomNip();
    const other = await createTestAccount(t.db(), { seller: { ...VALID_SELLER, nip: otherNip } });
    await ksef.connect(t.db(), other.testScope, otherNip);
    const foreign = (await createInvoiceDocument(t.db(), other.testScope, parseOrderInput(paidOrder({ number: 'OBCE-1' })))).document;

    const invoice = (
      await createInvoiceDocument(t.db(), seller.testScope, parseOrderInput(paidOrder({ buyer: { ...paidOrder().buyer, name: '=Kupiec "A"; sp. z o.o.' } })))
    ).document;
    const accepted = await waitForStatus(t.db(), invoice.id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);
    expect(accepted.status).toBe('accepted');
    const refund = parseRefundInput({
      external_id: 'r-1',
      lines: [{ name: 'Kubek ceramiczny', sku: 'KUB-1', quantity: 1, unit_price: '47.49', vat_rate: '23' }],
    });
    const correction = (await createCorrectionDocument(t.db(), seller.testScope, invoice.id, refund)).document;
    expect((await waitForStatus(t.db(), correction.id, ['accepted', 'rejected', 'error', 'skipped'], 30_000)).status).toBe('accepted');
    await waitForStatus(t.db(), foreign.id, ['accepted', 'rejected', 'error', 'skipped'], 30_000);

    await setOfflinePolicy(t.db(), seller.testScope, { policy: 'when_unavailable', delaySeconds: 1 });
    await ksef.control().setFaults(KSEF_DOWN);
    let offline: Awaited<ReturnType<typeof load>>;
    try {
      const doc = (await createInvoiceDocument(t.db(), seller.testScope, parseOrderInput(paidOrder()))).document;
      await expect.poll(async () => (await load(doc.id)).offlineIssuedAt, { timeout: 30_000 }).not.toBeNull();
      offline = await load(doc.id);
      expect(offline.ksefNumber).toBeNull();
      const period = offline.issueDate!.slice(0, 7);

      // the register while the offline invoice has no KSeF number: DI
      const csv = await bytes(seller.testKey, `/v1/exports/sales-register?period=${period}`);
      expect(csv.res.status).toBe(200);
      expect(csv.res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(csv.res.headers.get('content-disposition')).toBe(`attachment; filename="rejestr-sprzedazy-${period}.csv"`);
      const [header, ...rows] = parseCsv(csv.body);
      expect(header).toEqual([...REGISTER_CSV_HEADER]);
      const col = (row: string[], name: (typeof REGISTER_CSV_HEADER)[number]) => row[REGISTER_CSV_HEADER.indexOf(name)];
      expect(rows.map((r) => [col(r, 'Id dokumentu'), col(r, 'Rodzaj'), col(r, 'Numer KSeF lub oznaczenie')])).toEqual([
        [invoice.id, 'faktura', accepted.ksefNumber],
        [correction.id, 'korekta', (await load(correction.id)).ksefNumber],
        [offline.id, 'faktura', 'DI'],
      ]);
      const [inv, cor, di] = rows as [string[], string[], string[]];
      // 2 × 49.99 − 5.00 + 15.00 at 23%: gross 109.98 → net 89.41, VAT 20.57; 39.90 at 5%: net 38.00, VAT 1.90
      expect([col(inv, 'Netto 23%'), col(inv, 'VAT 23%'), col(inv, 'Netto 5%'), col(inv, 'VAT 5%'), col(inv, 'Brutto'), col(inv, 'Brutto PLN')]).toEqual([
        '89,41',
        '20,57',
        '38,00',
        '1,90',
        '149,88',
        '149,88',
      ]);
      expect(col(inv, 'Nazwa nabywcy')).toBe(`'=Kupiec "A"; sp. z o.o.`);
      expect([col(inv, 'NIP nabywcy'), col(inv, 'Waluta'), col(inv, 'Offline'), col(inv, 'Data zapłaty')]).toEqual(['5260250274', 'PLN', 'nie', '2026-11-20']);
      expect([col(cor, 'Brutto'), col(cor, 'Faktura korygowana'), col(cor, 'Numer KSeF faktury korygowanej')]).toEqual([
        '-47,49',
        accepted.number,
        accepted.ksefNumber,
      ]);
      expect([col(di, 'Offline'), col(di, 'Termin przekroczony')]).toEqual(['tak', '']);
      expect(col(di, 'Wydana offline')).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

      const xml = await bytes(seller.testKey, `/v1/exports/sales-register?period=${period}&format=xml`);
      expect(xml.res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      const tree = xmlTree(xml.body.toString('utf8'));
      expect([tree.name, tree.attrs.xmlns]).toEqual(['Ewidencja', 'http://crd.gov.pl/wzor/2025/12/19/14090/']);
      const wiersze = allAt(tree, 'SprzedazWiersz');
      expect(wiersze).toHaveLength(3);
      for (const w of wiersze) {
        const names = w.children.map((c) => c.name);
        expect(names).toEqual(SALES_ROW_ORDER.filter((n) => names.includes(n)));
        expect(names.filter((n) => n === 'NrKSeF' || n === 'DI')).toHaveLength(1);
        for (const c of w.children.filter((c) => c.name.startsWith('K_'))) expect(c.text).toMatch(/^-?\d+\.\d{2}$/);
      }
      expect(wiersze.map((w) => w.children.find((c) => c.name === 'DI' || c.name === 'NrKSeF')!.text)).toEqual([accepted.ksefNumber, expect.any(String), '1']);
      expect(wiersze[1]!.children.find((c) => c.name === 'K_20')!.text).toBe('-8.88');
      const ctrl = allAt(tree, 'SprzedazCtrl')[0]!;
      expect(ctrl.children.map((c) => [c.name, c.text])).toEqual([
        ['LiczbaWierszySprzedazy', '3'],
        ['PodatekNalezny', String((2 * (2057 + 190) - 888) / 100)],
      ]);

      // another account's documents never appear, and it sees none of this seller's
      expect(csv.body.toString('utf8')).not.toContain(foreign.id);
      const otherCsv = parseCsv((await bytes(other.testKey, `/v1/exports/sales-register?period=${period}`)).body);
      expect(otherCsv.slice(1).map((r) => r[REGISTER_CSV_HEADER.indexOf('Id dokumentu')])).toEqual([foreign.id]);

      // KSeF back: the DI invoice gets its number; changed_since lists it alone
      const filed = Math.floor(Date.now() / 1000);
      await new Promise((r) => setTimeout(r, 1_100));
      await ksef.control().clearFaults();
      const numbered = await waitForStatus(t.db(), offline.id, ['accepted', 'rejected', 'error'], 30_000);
      expect(numbered.status).toBe('accepted');
      const changed = parseCsv((await bytes(seller.testKey, `/v1/exports/sales-register?period=${period}&changed_since=${filed}`)).body);
      expect(
        changed.slice(1).map((r) => [r[REGISTER_CSV_HEADER.indexOf('Id dokumentu')], r[REGISTER_CSV_HEADER.indexOf('Numer KSeF lub oznaczenie')]]),
      ).toEqual([[offline.id, numbered.ksefNumber]]);
      const changedXml = xmlTree(
        (await bytes(seller.testKey, `/v1/exports/sales-register?period=${period}&changed_since=${filed}&format=xml`)).body.toString('utf8'),
      );
      expect(allAt(changedXml, 'SprzedazWiersz').map((w) => w.children.find((c) => c.name === 'NrKSeF')?.text)).toEqual([numbered.ksefNumber]);

      // the archive: each document's XML, UPO and PDF by number, the register and the manifest of what is missing
      await expect.poll(async () => (await load(correction.id)).pdfFileId, { timeout: 20_000 }).not.toBeNull();
      await expect.poll(async () => (await load(invoice.id)).pdfFileId, { timeout: 20_000 }).not.toBeNull();
      const zip = await bytes(seller.testKey, `/v1/exports/archive?period=${period}`);
      expect([zip.res.status, zip.res.headers.get('content-type')]).toEqual([200, 'application/zip']);
      const entries = unzipSync(new Uint8Array(zip.body));
      const names = Object.keys(entries);
      const base = (n: string) => `${period}/${n.replace(/\//g, '-')}`;
      const inv1 = await load(invoice.id);
      const cor1 = await load(correction.id);
      const off1 = await load(offline.id);
      expect(names).toEqual(
        expect.arrayContaining([`${base(inv1.number!)}.xml`, `${base(inv1.number!)}.upo.xml`, `${base(inv1.number!)}.pdf`, `${base(cor1.number!)}.xml`]),
      );
      expect(names.every((n) => n.startsWith(`${period}/`) && !n.slice(period.length + 1).includes('/'))).toBe(true);
      expect(Buffer.from(entries[`${base(inv1.number!)}.xml`]!).toString('utf8')).toBe(inv1.fa3Xml);
      expect(Buffer.from(entries[`${base(inv1.number!)}.upo.xml`]!).toString('utf8')).toBe(inv1.upoXml);
      const pdf = (await t.db().select({ content: files.content }).from(files).where(eq(files.id, inv1.pdfFileId!)))[0]!.content;
      expect(Buffer.from(entries[`${base(inv1.number!)}.pdf`]!).equals(pdf)).toBe(true);
      expect(Buffer.from(entries[`${base(off1.number!)}.xml`]!).toString('utf8')).toBe(off1.fa3Xml);
      const register = parseCsv(Buffer.from(entries[`${period}/rejestr-${period}.csv`]!));
      expect(register.slice(1).map((r) => r[REGISTER_CSV_HEADER.indexOf('Id dokumentu')])).toEqual([invoice.id, correction.id, offline.id]);
      const manifest = parseCsv(Buffer.from(entries[`${period}/manifest.csv`]!));
      expect(manifest[0]).toEqual(['Numer', 'Id dokumentu', 'Brakuje']);
      for (const [number, id, lacks] of manifest.slice(1)) {
        const doc = await load(id!);
        expect(number).toBe(doc.number);
        const expected = [!doc.upoXml && 'UPO', !doc.pdfFileId && 'PDF'].filter(Boolean).join(', ');
        expect([lacks, expected.length > 0]).toEqual([expected, true]);
      }
      expect(names).not.toContain(`${period}/${foreign.number ?? 'x'}.xml`);
      // what the dashboard measures the download against
      const summary = await monthSummary(t.db(), seller.testScope, period);
      expect([summary.documents, summary.withoutUpo, summary.withoutPdf]).toEqual([3, 0, manifest.slice(1).filter((r) => r[2]!.includes('PDF')).length]);
      expect(summary.storedBytes).toBeGreaterThan(zip.body.length / 2);
      expect((await monthSummary(t.db(), other.testScope, period)).documents).toBe(1);
      // the system unzip takes it too
      const dir = mkdtempSync(path.join(tmpdir(), 'archive-'));
      writeFileSync(path.join(dir, 'a.zip'), zip.body);
      expect(execFileSync('unzip', ['-t', path.join(dir, 'a.zip')]).toString()).toMatch(/No errors detected/);

      // bad input: 400 with the parameter named, nothing streamed
      for (const [query, code] of [
        ['period=2026-13', 'parameter_invalid'],
        ['period=2026-2', 'parameter_invalid'],
        ['', 'parameter_missing'],
      ] as const) {
        const res = await api.get(`/v1/exports/sales-register${query && `?${query}`}`);
        expect([res.status, res.body.error.code, res.body.error.param]).toEqual([400, code, 'period']);
      }
      const badFormat = await api.get(`/v1/exports/sales-register?period=${period}&format=xlsx`);
      expect([badFormat.status, badFormat.body.error.param]).toEqual([400, 'format']);
      const badArchive = await api.get('/v1/exports/archive?period=02-2026');
      expect([badArchive.status, badArchive.body.error.param]).toEqual([400, 'period']);
      expect((await api.get(`/v1/exports/sales-register?period=${period}&changed_since=soon`)).body.error.param).toBe('changed_since');
      // contract: the streamed answers match the OpenAPI document's content types
      expect((await api.get(`/v1/exports/sales-register?period=${period}&format=xml`)).status).toBe(200);
      expect((await api.get(`/v1/exports/archive?period=${period}`)).status).toBe(200);
    } finally {
      await ksef.control().clearFaults();
    }
  });
});
