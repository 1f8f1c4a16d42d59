import { count } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { documents, documentStatusEnum, type DocumentStatus } from '@/server/db/schema';

/** Documents (invoices and corrections) of the scope per status, every status present (zero when none). */
export async function countByStatus(db: DbOrTx, scope: Scope): Promise<Record<DocumentStatus, number>> {
  const rows = await db.select({ status: documents.status, n: count() }).from(documents).where(inScope(documents, scope)).groupBy(documents.status);
  const counts = Object.fromEntries(documentStatusEnum.enumValues.map((s) => [s, 0])) as Record<DocumentStatus, number>;
  for (const r of rows) counts[r.status] = r.n;
  return counts;
}
