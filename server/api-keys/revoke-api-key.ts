import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { apiKeys } from '@/server/db/schema';
import { AppError } from '@/server/errors';

/** Revokes one key of the scope by id; a key of another account or mode looks missing (invariant 5). */
export async function revokeApiKey(db: DbOrTx, scope: Scope, id: string): Promise<void> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, scope.accountId), eq(apiKeys.mode, scope.mode), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) throw new AppError('resource_missing', 'id', `No such API key: ${id}.`);
}
