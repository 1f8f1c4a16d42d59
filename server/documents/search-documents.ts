import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents, documentStatusEnum } from '@/server/db/schema';
import { normalizeNip } from '@/server/orders/nip';

export const ZSearchDocuments = z.object({
  status: z.enum(documentStatusEnum.enumValues).optional(),
  query: z.string().trim().max(100).optional(),
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(5).max(100).default(20),
});
export type SearchDocumentsInput = z.infer<typeof ZSearchDocuments>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The dashboard's document table: invoices and corrections of the scope newest first, by status and by a text
 * that may be part of the order external_id, the number or the KSeF number, or a buyer NIP typed any way.
 */
export async function searchDocuments(db: DbOrTx, scope: Scope, input: SearchDocumentsInput) {
  const q = input.query ? `%${escapeLike(input.query)}%` : undefined;
  const nip = input.query ? normalizeNip(input.query) : '';
  const where = and(
    inScope(documents, scope),
    input.status ? eq(documents.status, input.status) : undefined,
    q
      ? or(
          ilike(documents.orderExternalId, q),
          ilike(documents.number, q),
          ilike(documents.ksefNumber, q),
          // buyer_nip is filled when the document is prepared; before that only the stored order has it
          /^\d{3,10}$/.test(nip) ? ilike(sql`coalesce(${documents.buyerNip}, ${documents.input}->'buyer'->>'nip')`, `%${nip}%`) : undefined,
        )
      : undefined,
  );
  const [total] = await db.select({ n: count() }).from(documents).where(where);
  const rows = await db
    .select({
      id: documents.id,
      kind: documents.kind,
      status: documents.status,
      orderExternalId: documents.orderExternalId,
      number: documents.number,
      ksefNumber: documents.ksefNumber,
      buyerNip: documents.buyerNip,
      issueDate: documents.issueDate,
      currency: documents.currency,
      totalGrossGrosze: documents.totalGrossGrosze,
      createdAt: documents.createdAt,
    })
    .from(documents)
    .where(where)
    .orderBy(desc(documents.seq))
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize);
  return { total: total?.n ?? 0, page: input.page, pageSize: input.pageSize, rows };
}
