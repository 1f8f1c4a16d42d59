import { and, desc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { apiKeys } from '@/server/db/schema';

/** Unrevoked keys of the scope's mode, newest first; the hash never leaves the service. */
export async function listApiKeys(db: DbOrTx, scope: Scope) {
  return db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, mode: apiKeys.mode, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.accountId, scope.accountId), eq(apiKeys.mode, scope.mode), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt));
}
