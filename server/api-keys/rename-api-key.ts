import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { apiKeys } from '@/server/db/schema';
import { AppError } from '@/server/errors';

/** Names (or renames) one unrevoked key of the scope; `null` clears the name. Another scope's key looks missing. */
export async function renameApiKey(db: DbOrTx, scope: Scope, id: string, name: string | null): Promise<void> {
  const rows = await db
    .update(apiKeys)
    .set({ name })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, scope.accountId), eq(apiKeys.mode, scope.mode), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw new AppError('resource_missing', 'id', `No such API key: ${id}.`);
}
