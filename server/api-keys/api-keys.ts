import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/server/db/client';
import { apiKeys, type Mode } from '@/server/db/schema';
import { newId, randomToken } from '@/server/ids';

const PREFIX_LENGTH = 12; // `sk_test_` + 4 random characters: enough to tell keys apart in a list

/** A key's name: what its owner calls it, to tell keys apart in the list. */
export const ZApiKeyName = z.string().trim().min(1).max(60);

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** Creates a key of 192 random bits; only its SHA-256 is stored, so the returned text is the only copy. */
export async function createApiKey(
  db: DbOrTx,
  accountId: string,
  mode: Mode,
  name: string | null = null,
): Promise<{ id: string; key: string; prefix: string }> {
  const key = `sk_${mode}_${randomToken(192)}`;
  const row = { id: newId('key'), accountId, mode, name, prefix: key.slice(0, PREFIX_LENGTH), hash: hashApiKey(key) };
  await db.insert(apiKeys).values(row);
  return { id: row.id, key, prefix: row.prefix };
}

/** Revokes every live key whose visible prefix matches; returns how many were revoked. */
export async function revokeApiKeys(db: DbOrTx, prefix: string, accountId?: string): Promise<string[]> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.prefix, prefix), isNull(apiKeys.revokedAt), accountId ? eq(apiKeys.accountId, accountId) : undefined))
    .returning({ id: apiKeys.id });
  return rows.map((r) => r.id);
}
