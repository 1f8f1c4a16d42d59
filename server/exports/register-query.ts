import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { files } from '@/server/db/schema';
import type { Scope } from '@/server/db/scope';
import type { ExchangeRate } from '@/server/ksef/fa3/exchange-rate';
import type { OutageMode } from '@/server/outage/mode-names';
import { periodDates } from './period';
import type { RegisterSource } from './register-row';

/** Which documents of a month an export takes; `changedSince` keeps those whose KSeF number or marker changed after it. */
export type RegisterFilter = { period: string; changedSince?: Date };

/** Rows per register query: a page of FA(3) XML, a few KB each. */
export const PAGE_ROWS = 200;

type Cursor = { issueDate: string; seq: number };

/**
 * The documents of the register (inRegister), in issue-date order: issued means numbered by KSeF, or handed to the buyer offline
 * (offline24 or an announced outage) and not yet numbered (its row carries the mode's marker: DI, OFF or BFK). A document still queued online, or rejected without having
 * been handed over, was never issued. `mark_changed_at` is when the row's mark took its present value: KSeF's
 * acceptance (document_transitions) or, before it, the offline hand-over.
 */
export function inRegister(scope: Scope, period: string): SQL {
  const { from, to } = periodDates(period);
  return sql`d.account_id = ${scope.accountId} and d.mode = ${scope.mode}
    and d.issue_date >= ${from} and d.issue_date < ${to}
    and d.fa3_xml is not null and d.number is not null
    and (d.ksef_number is not null or d.offline_issued_at is not null)`;
}

function registerQuery(scope: Scope, filter: RegisterFilter, after: Cursor | null, limit: number, columns: SQL): SQL {
  return sql`
    select * from (
      select ${columns}, d.issue_date, d.seq,
        coalesce(
          (select max(t.at) from document_transitions t where t.document_id = d.id and t.to_status = 'accepted'),
          d.offline_issued_at,
          d.updated_at
        ) as mark_changed_at
      from documents d
      where ${inRegister(scope, filter.period)}
        ${after ? sql`and (d.issue_date, d.seq) > (${after.issueDate}, ${after.seq})` : sql``}
    ) r
    ${filter.changedSince ? sql`where r.mark_changed_at > ${filter.changedSince.toISOString()}::timestamptz` : sql``}
    order by r.issue_date, r.seq
    limit ${limit}`;
}

type RawRegister = {
  id: string;
  kind: 'invoice' | 'correction';
  number: string;
  ksef_number: string | null;
  fa3_xml: string;
  exchange_rate: ExchangeRate | null;
  offline_mode: boolean;
  offline_issued_at: string | Date | null;
  offline_deadline: string | Date | null;
  offline_deadline_missed: boolean;
  outage_mode: OutageMode | null;
  invoice_id: string | null;
  issue_date: string;
  seq: string | number;
  mark_changed_at: string | Date;
};

const date = (v: string | Date | null) => (v === null ? null : new Date(v));

export type RegisterDocument = RegisterSource & { number: string; fa3Xml: string };

/** Every register document of the filter, page by page (keyset on issue date and seq: no offset, no long transaction). */
export async function* registerDocuments(db: Db, scope: Scope, filter: RegisterFilter, pageRows = PAGE_ROWS): AsyncGenerator<RegisterDocument> {
  let after: Cursor | null = null;
  for (;;) {
    const rows: RawRegister[] = await db.execute<RawRegister>(
      registerQuery(
        scope,
        filter,
        after,
        pageRows,
        // a correction converts at its invoice's rate (the KOR has no rate of its own)
        sql`d.id, d.kind, d.number, d.ksef_number, d.fa3_xml, d.offline_mode, d.offline_issued_at, d.offline_deadline,
          d.offline_deadline_missed, d.outage_mode, d.invoice_id,
          coalesce(d.exchange_rate, (select o.exchange_rate from documents o where o.id = d.invoice_id)) as exchange_rate`,
      ),
    );
    for (const r of rows) {
      yield {
        id: r.id,
        kind: r.kind,
        number: r.number,
        fa3Xml: r.fa3_xml,
        ksefNumber: r.ksef_number,
        exchangeRate: r.exchange_rate,
        offlineMode: r.offline_mode,
        offlineIssuedAt: date(r.offline_issued_at),
        offlineDeadline: date(r.offline_deadline),
        offlineDeadlineMissed: r.offline_deadline_missed,
        outageMode: r.outage_mode,
        invoiceId: r.invoice_id,
        markChangedAt: new Date(r.mark_changed_at),
      };
    }
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    after = { issueDate: last.issue_date, seq: Number(last.seq) } satisfies Cursor;
  }
}

type RawFiles = { id: string; number: string; fa3_xml: string; upo_xml: string | null; pdf_file_id: string | null; issue_date: string; seq: string | number };
export type ArchiveDocument = { id: string; number: string; issueDate: string; fa3Xml: string; upoXml: string | null; pdf: Buffer | null };

/**
 * The register's documents with their files, for the archive; a PDF not rendered yet is null. Each PDF is read
 * when its document is written, so its bytes (and the hex text they arrive as) die young: PDFs read a page at a
 * time lived across several writes, reached V8's old space, and raised the 50,000-document bench's RSS peak.
 */
export async function* archiveDocuments(db: Db, scope: Scope, filter: RegisterFilter, pageRows = 50): AsyncGenerator<ArchiveDocument> {
  let after: Cursor | null = null;
  for (;;) {
    const rows: RawFiles[] = await db.execute<RawFiles>(
      registerQuery(scope, filter, after, pageRows, sql`d.id, d.number, d.fa3_xml, d.upo_xml, d.pdf_file_id`),
    );
    for (const r of rows) {
      const pdf = r.pdf_file_id ? await pdfContent(db, r.pdf_file_id, r.id) : null;
      yield { id: r.id, number: r.number, issueDate: r.issue_date, fa3Xml: r.fa3_xml, upoXml: r.upo_xml, pdf };
    }
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    after = { issueDate: last.issue_date, seq: Number(last.seq) } satisfies Cursor;
  }
}

async function pdfContent(db: Db, fileId: string, documentId: string): Promise<Buffer | null> {
  const [file] = await db
    .select({ content: files.content })
    .from(files)
    .where(and(eq(files.id, fileId), eq(files.documentId, documentId)));
  return file?.content ?? null;
}
