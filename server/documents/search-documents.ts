import { and, asc, count, desc, eq, gte, ilike, lte, or, sql, sum, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { DOCUMENT_HAYSTACK, documents, NUMBER_SORT_KEY } from '@/server/db/schema';
import { normalizeNip } from '@/server/orders/nip';
import { ZDocumentFilters, ZDocumentSort, type DocumentFilters, type DocumentSort } from './document-filters';

export const ZSearchDocuments = ZDocumentFilters.merge(ZDocumentSort).extend({
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(5).max(100).default(20),
});
export type SearchDocumentsInput = z.input<typeof ZSearchDocuments>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A "contains" match on DOCUMENT_HAYSTACK (order id, number, KSeF number, buyer name, buyer NIP), served by its
 * trigram index; a NIP typed with dashes, spaces or PL is also looked for as its digits.
 */
function matching(query: string): SQL | undefined {
  const nip = normalizeNip(query);
  const texts = [query, ...(/^\d{3,10}$/.test(nip) && nip !== query ? [nip] : [])];
  return or(...texts.map((t) => ilike(DOCUMENT_HAYSTACK, `%${escapeLike(t)}%`)));
}

export function documentFilter(scope: Scope, f: DocumentFilters): SQL | undefined {
  return and(
    inScope(documents, scope),
    f.status ? eq(documents.status, f.status) : undefined,
    f.kind ? eq(documents.kind, f.kind) : undefined,
    f.from ? gte(documents.issueDate, f.from) : undefined,
    f.to ? lte(documents.issueDate, f.to) : undefined,
    f.query ? matching(f.query) : undefined,
  );
}

/** `seq` breaks ties, so a page boundary never shows a document twice; each sort has its index (schema/documents.ts). */
export function documentOrder(s: DocumentSort): SQL[] {
  const by = s.dir === 'asc' ? asc : desc;
  if (s.sort === 'date') return [by(documents.issueDate), by(documents.seq)];
  if (s.sort === 'number') return [by(NUMBER_SORT_KEY), by(documents.seq)];
  return [by(documents.seq)];
}

/** One row of the table and of the CSV export. */
export const documentListColumns = {
  id: documents.id,
  kind: documents.kind,
  status: documents.status,
  orderExternalId: documents.orderExternalId,
  number: documents.number,
  ksefNumber: documents.ksefNumber,
  buyerName: sql<string | null>`coalesce(${documents.buyerName}, ${documents.input}->'buyer'->>'name')`,
  buyerNip: sql<string | null>`coalesce(${documents.buyerNip}, ${documents.input}->'buyer'->>'nip')`,
  issueDate: documents.issueDate,
  currency: documents.currency,
  totalNetGrosze: documents.totalNetGrosze,
  totalVatGrosze: documents.totalVatGrosze,
  totalGrossGrosze: documents.totalGrossGrosze,
  createdAt: documents.createdAt,
};

export type CurrencyTotals = { currency: string; documents: number; netGrosze: number; vatGrosze: number; grossGrosze: number };

/**
 * How many documents the filters select, and their net, VAT and gross per currency, in one pass over them: a
 * document not numbered yet has no currency and no amounts yet, so it counts only in `total`.
 */
export async function documentTotals(db: DbOrTx, where: SQL | undefined): Promise<{ total: number; totals: CurrencyTotals[] }> {
  const groups = await db
    .select({
      currency: documents.currency,
      documents: count(),
      net: sum(documents.totalNetGrosze),
      vat: sum(documents.totalVatGrosze),
      gross: sum(documents.totalGrossGrosze),
    })
    .from(documents)
    .where(where)
    .groupBy(documents.currency)
    .orderBy(asc(documents.currency));
  return {
    total: groups.reduce((n, g) => n + g.documents, 0),
    totals: groups.flatMap((g) =>
      g.currency === null
        ? []
        : [{ currency: g.currency, documents: g.documents, netGrosze: Number(g.net ?? 0), vatGrosze: Number(g.vat ?? 0), grossGrosze: Number(g.gross ?? 0) }],
    ),
  };
}

/**
 * The dashboard's document table: invoices and corrections of the scope, filtered, sorted and paged, with how many
 * the filters select and their totals per currency.
 */
export async function searchDocuments(db: DbOrTx, scope: Scope, raw: SearchDocumentsInput) {
  const input = ZSearchDocuments.parse(raw);
  const where = documentFilter(scope, input);
  const [{ total, totals }, rows] = await Promise.all([
    documentTotals(db, where),
    db
      .select(documentListColumns)
      .from(documents)
      .where(where)
      .orderBy(...documentOrder(input))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
  ]);
  return { total, page: input.page, pageSize: input.pageSize, totals, rows };
}
