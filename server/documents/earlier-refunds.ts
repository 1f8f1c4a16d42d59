import { and, eq, lt, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import { ZNormalizedRefund, type NormalizedRefund } from '@/server/orders/types';

/**
 * Refunds already corrected on an invoice (oldest first), up to `beforeSeq` when given. Corrections that never
 * reached KSeF (rejected, skipped, error) did not change what the invoice says, so they do not count.
 */
export async function earlierRefunds(db: DbOrTx, invoiceId: string, beforeSeq?: number): Promise<NormalizedRefund[]> {
  const rows = await db
    .select({ input: documents.input })
    .from(documents)
    .where(
      and(
        eq(documents.invoiceId, invoiceId),
        eq(documents.kind, 'correction'),
        notInArray(documents.status, ['rejected', 'skipped', 'error']),
        beforeSeq !== undefined ? lt(documents.seq, beforeSeq) : undefined,
      ),
    )
    .orderBy(documents.seq);
  return rows.map((r) => ZNormalizedRefund.parse(r.input));
}
