/**
 * The dashboard's document search at scale: seeds `documents=100000` documents of one test-mode account (plus
 * `others=20000` of a second account and of the first one's live mode, which the scope must skip), then times
 * searchDocuments (page, count and totals per currency together, as the table asks) `rounds=15` times per case
 * after one uncounted run, and prints p50/p95. Run: `npx tsx bench/document-search.ts [documents=…] [rounds=…]`.
 *
 * The seed is one INSERT … SELECT over generate_series: buyer names from a list of 500, a year of issue dates,
 * numbers FV/YYYY/MM/n per month, one correction in ten, 3 % pending (no number yet), 5 % in EUR.
 */
import { sql } from 'drizzle-orm';
import { createAccount } from '@/server/accounts/create-account';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { listDocumentsForExport } from '@/server/documents/list-documents-for-export';
import { searchDocuments, type SearchDocumentsInput } from '@/server/documents/search-documents';
import { readArgs } from './lib/args';
import { percentile } from './lib/documents';
import { createBenchDatabase } from './lib/stack';

const args = readArgs({ documents: 100_000, others: 20_000, rounds: 15 });

async function seed(db: Db, scope: Scope, count: number, from: number) {
  await db.execute(sql`
    insert into documents (id, account_id, mode, kind, status, invoice_id, order_external_id, refund_external_id, number,
      ksef_number, ksef_environment, issue_date, currency, total_net_grosze, total_vat_grosze, total_gross_grosze,
      buyer_nip, buyer_name, input, created_at)
    select
      case when i % 10 = 0 then 'cor_' else 'inv_' end || lpad(i::text, 12, '0'),
      ${scope.accountId}, ${scope.mode}::mode,
      (case when i % 10 = 0 then 'correction' else 'invoice' end)::document_kind,
      (case when i % 33 = 0 then 'pending' when i % 50 = 1 then 'error' else 'accepted' end)::document_status,
      case when i % 10 = 0 then 'inv_' || lpad((i - 1)::text, 12, '0') end,
      'order-' || i, case when i % 10 = 0 then 'refund-' || i end,
      case when i % 33 <> 0 then (case when i % 10 = 0 then 'KOR/' else 'FV/' end) || to_char(d, 'YYYY/MM') || '/' || (i / 12 + 1) end,
      case when i % 33 <> 0 and i % 50 <> 1 then '5260250274-' || to_char(d, 'YYYYMMDD') || '-' || upper(substr(md5(i::text), 1, 12)) || '-' || upper(substr(md5(i::text), 13, 2)) end,
      'test',
      case when i % 33 <> 0 then to_char(d, 'YYYY-MM-DD') end,
      case when i % 33 <> 0 then (case when i % 20 = 7 then 'EUR' else 'PLN' end) end,
      case when i % 33 <> 0 then (case when i % 10 = 0 then -1 else 1 end) * (10000 + i % 9000) end,
      case when i % 33 <> 0 then (case when i % 10 = 0 then -1 else 1 end) * (2300 + i % 2000) end,
      case when i % 33 <> 0 then (case when i % 10 = 0 then -1 else 1 end) * (12300 + i % 9000 + i % 2000) end,
      case when i % 33 <> 0 then lpad(((i % 500) * 1234567 % 9999999999)::text, 10, '1') end,
      case when i % 33 <> 0 then 'Firma ' || (array['Zielona', 'Kowalski', 'Nowak', 'Hurt', 'Biuro', 'Sklep'])[i % 6 + 1] || ' nr ' || (i % 500) || ' sp. z o.o.' end,
      jsonb_build_object('externalId', 'order-' || i, 'buyer', jsonb_build_object(
        'name', 'Firma ' || (array['Zielona', 'Kowalski', 'Nowak', 'Hurt', 'Biuro', 'Sklep'])[i % 6 + 1] || ' nr ' || (i % 500) || ' sp. z o.o.',
        'nip', lpad(((i % 500) * 1234567 % 9999999999)::text, 10, '1'))),
      d
    from generate_series(${from}::int, ${from + count - 1}::int) i,
      lateral (select timestamptz '2026-01-01 10:00+01' + ((i - ${from}::int) * 365.0 / ${count}::int) * interval '1 day' as d) t`);
}

const CASES: [string, Partial<SearchDocumentsInput>][] = [
  ['no filter, newest first', {}],
  ['buyer name contains "kowalski nr 17"', { query: 'kowalski nr 17' }],
  ['buyer name contains "zielona" (1/6 of all)', { query: 'zielona' }],
  ['NIP typed with dashes', { query: '111-123-45-67' }],
  ['number FV/2026/05/3000', { query: 'FV/2026/05/3000' }],
  ['KSeF number fragment', { query: 'ABCDEF' }],
  ['order id order-54321', { query: 'order-54321' }],
  ['corrections in March', { kind: 'correction', from: '2026-03-01', to: '2026-03-31' }],
  ['status error', { status: 'error' }],
  ['sort by date, oldest first', { sort: 'date', dir: 'asc' }],
  ['sort by date, newest first', { sort: 'date', dir: 'desc' }],
  ['sort by number, ascending', { sort: 'number', dir: 'asc' }],
  ['sort by number, descending', { sort: 'number', dir: 'desc' }],
  ['page 100 by date', { sort: 'date', page: 100 }],
];

async function time(run: () => Promise<unknown>): Promise<number[]> {
  await run();
  const ms: number[] = [];
  for (let r = 0; r < args.rounds; r++) {
    const started = performance.now();
    await run();
    ms.push(performance.now() - started);
  }
  return ms;
}

async function main() {
  const bench = await createBenchDatabase();
  try {
    const { db } = bench;
    const account = await createAccount(db, { email: 'search@bench.test' });
    const other = await createAccount(db, { email: 'other@bench.test' });
    const scope: Scope = { accountId: account.accountId, mode: 'test' };
    let started = performance.now();
    await seed(db, scope, args.documents, 1);
    await seed(db, { accountId: other.accountId, mode: 'test' }, args.others / 2, 1_000_000);
    await seed(db, { accountId: account.accountId, mode: 'live' }, args.others / 2, 2_000_000);
    await db.execute(sql`analyze documents`);
    console.log(`seeded ${args.documents} + ${args.others} documents in ${Math.round(performance.now() - started)} ms`);
    const rows: Record<string, string | number>[] = [];
    for (const [name, input] of CASES) {
      let found = 0;
      const ms = await time(async () => {
        found = (await searchDocuments(db, scope, { pageSize: 20, ...input })).total;
      });
      rows.push({ case: name, found, 'p50 ms': +percentile(ms, 50).toFixed(1), 'p95 ms': +percentile(ms, 95).toFixed(1) });
    }
    console.table(rows);
    started = performance.now();
    const all = await listDocumentsForExport(db, scope, {});
    console.log(`CSV export rows of everything (${all.length}): ${Math.round(performance.now() - started)} ms`);
  } finally {
    await bench.stop();
  }
}

await main();
