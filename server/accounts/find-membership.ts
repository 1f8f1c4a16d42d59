import 'server-only';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { accounts, memberships, users, type MemberRole } from '@/server/db/schema';

export type Membership = { userId: string; email: string; accountId: string; role: MemberRole; liveEnabled: boolean };

/**
 * The account a signed-in user works in: the one they chose (the dashboard's account switch) when they are a member
 * of it, else their first membership; null when the user or that account is gone or disabled. A chosen account the
 * user is not a member of is ignored, so the choice can never reach another account.
 */
export async function findMembership(db: DbOrTx, userId: string, chosenAccountId: string | null = null): Promise<Membership | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      accountId: accounts.id,
      role: memberships.role,
      liveEnabled: accounts.liveEnabled,
      disabledAt: accounts.disabledAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(desc(sql`${memberships.accountId} = ${chosenAccountId ?? ''}`), asc(memberships.createdAt))
    .limit(1);
  if (!row || row.disabledAt) return null;
  return { userId: row.userId, email: row.email, accountId: row.accountId, role: row.role, liveEnabled: row.liveEnabled };
}

/** Every account the user is a member of, for the account switch (an accountant working for several sellers). */
export async function listUserAccounts(db: DbOrTx, userId: string): Promise<{ accountId: string; email: string | null; role: MemberRole }[]> {
  return db
    .select({ accountId: accounts.id, email: accounts.email, role: memberships.role })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt));
}
