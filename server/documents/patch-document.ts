import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { documents } from '@/server/db/schema';

/** A document's new `updated`: now, but always after the previous value (ordering by it never ties). */
export const nextUpdatedAt = () => sql`greatest(now(), ${documents.updatedAt} + interval '1 millisecond')`;

export type DocumentPatch = Partial<Omit<typeof documents.$inferInsert, 'id' | 'accountId' | 'mode' | 'kind' | 'status'>>;

/** Updates fields without a status change (references, UPO, PDF); `updated` moves too. One statement: no transaction needed. */
export async function patchDocument(tx: DbOrTx, id: string, patch: DocumentPatch): Promise<void> {
  await tx
    .update(documents)
    .set({ ...patch, updatedAt: nextUpdatedAt() })
    .where(eq(documents.id, id));
}
