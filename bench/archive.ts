/**
 * The monthly archive of issue 34 at volume: one account's month of 50,000 accepted documents (FA(3) XML, UPO and a
 * PDF each, plus their acceptance on the timeline), streamed as GET /v1/exports/archive streams it (the same
 * generator and pull-based stream, read here as a client reads the answer), bytes counted and thrown away.
 * Prints the resident memory peak of this process (goal ≤ 250 MB) and the time.
 * Run: DATABASE_URL=postgres://… npx tsx bench/archive.ts [documents=50000] [pdfKb=25] (name=value)
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { archivePieces } from '@/server/exports/archive-stream';
import { pulledStream } from '@/server/exports/text-stream';
import { buildInvoiceXml } from '@/server/ksef/fa3/build-invoice';
import { parseOrderInput } from '@/server/orders/order-schema';
import { createTestAccount, VALID_SELLER } from '@/test/factories';
import { paidOrder } from '@/test/orders';
import { readArgs } from './lib/args';
import { createBenchDatabase } from './lib/stack';

const { documents: count, pdfKb } = readArgs({ documents: 50_000, pdfKb: 25 });
const PERIOD = '2026-11';
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const bench = await createBenchDatabase();
try {
  const { testScope: scope } = await createTestAccount(bench.db);
  const seller = { ...VALID_SELLER, email: null, phone: null };
  // one real FA(3) document; each row gets its own number in P_2
  const xml = buildInvoiceXml({
    seller,
    order: parseOrderInput(paidOrder(), new Date('2026-11-27T12:00:00Z')),
    number: 'FV/2026/11/#N#',
    documentId: 'inv_bench',
    issueDate: '2026-11-27',
    systemInfo: 'bench',
  });
  const upo = `<?xml version="1.0" encoding="UTF-8"?><Potwierdzenie>${'<Dokument>upo</Dokument>'.repeat(80)}</Potwierdzenie>`;
  const seedStarted = Date.now();
  await bench.db.execute(sql`
    insert into documents (id, account_id, mode, kind, status, order_external_id, number, ksef_number, ksef_environment,
      issue_date, currency, total_gross_grosze, buyer_nip, input, fa3_xml, upo_xml)
    select 'inv_bench_' || g, ${scope.accountId}, 'test', 'invoice', 'accepted', 'order-' || g, 'FV/2026/11/' || g,
      ${VALID_SELLER.nip} || '-20261127-' || upper(lpad(to_hex(g), 12, '0')) || '-00', 'test',
      '2026-11-' || lpad((1 + g % 28)::text, 2, '0'), 'PLN', 14988, '5260250274', '{}'::jsonb,
      replace(${xml}, '#N#', g::text), ${upo}
    from generate_series(1, ${count}) g`);
  await bench.db.execute(sql`
    insert into document_transitions (document_id, from_status, to_status, at)
    select id, 'sending', 'accepted', now() from documents where account_id = ${scope.accountId}`);
  // a PDF's streams are deflated already: random bytes are as incompressible
  await bench.db.execute(sql`
    insert into files (id, document_id, content_type, filename, content)
    select 'file_' || d.id, d.id, 'application/pdf', 'x.pdf', ${randomBytes(pdfKb * 1024)}::bytea from documents d where d.account_id = ${scope.accountId}`);
  await bench.db.execute(sql`update documents set pdf_file_id = 'file_' || id where account_id = ${scope.accountId}`);
  await bench.db.execute(sql`analyze documents`);
  console.log(`seeded ${count} documents (${pdfKb} KB PDF, ${xml.length} B XML, ${upo.length} B UPO) in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

  global.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  let atPeak = process.memoryUsage();
  const sample = () => {
    const m = process.memoryUsage();
    if (m.rss > peak) [peak, atPeak] = [m.rss, m];
  };
  const sampler = setInterval(sample, 50);
  const started = Date.now();
  let bytes = 0;
  const reader = pulledStream(archivePieces(bench.db, scope, { period: PERIOD })).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
  }
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  console.log(
    `archive of ${count} documents: ${mb(bytes)} MB in ${seconds.toFixed(1)} s (${(bytes / 1024 / 1024 / seconds).toFixed(0)} MB/s); ` +
      `RSS idle ${mb(idle)} MB, peak ${mb(peak)} MB (goal ≤ 250 MB; at the peak V8 heap ${mb(atPeak.heapUsed)} of ${mb(atPeak.heapTotal)} MB, ` +
      `off-heap buffers ${mb(atPeak.arrayBuffers)} MB)`,
  );
} finally {
  if (process.env.BENCH_KEEP) console.log(bench.url);
  else await bench.stop();
}
