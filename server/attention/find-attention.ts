import type { DbOrTx } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { Mode } from '@/server/db/schema';
import { CONDITIONS } from './conditions';
import type { AttentionEntry } from './kinds';

export type ScopeAttention = { accountId: string; mode: Mode; entries: AttentionEntry[] };

/** Every condition of the table at `now`, grouped by account and mode (entries in the table's order); only `scope`'s when given. */
export async function findAttention(db: DbOrTx, now: Date, scope?: Scope): Promise<ScopeAttention[]> {
  const found = await Promise.all(CONDITIONS.map((c) => c.find(db, now, scope)));
  const byScope = new Map<string, ScopeAttention>();
  CONDITIONS.forEach((condition, i) => {
    for (const f of found[i]!) {
      if (f.count <= 0) continue;
      const key = `${f.accountId}:${f.mode}`;
      const s = byScope.get(key) ?? { accountId: f.accountId, mode: f.mode, entries: [] };
      s.entries.push({ kind: condition.kind, count: f.count, ...(f.limit !== undefined && { limit: f.limit }), href: condition.href });
      byScope.set(key, s);
    }
  });
  return [...byScope.values()];
}

/** The dashboard's attention list of one account and mode. */
export async function listAttention(db: DbOrTx, scope: Scope, now: Date): Promise<AttentionEntry[]> {
  return (await findAttention(db, now, scope))[0]?.entries ?? [];
}
