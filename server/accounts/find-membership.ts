import 'server-only';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { accounts, memberships, users, type MemberRole } from '@/server/db/schema';

export type Membership = { userId: string; email: string; accountId: string; role: MemberRole; liveEnabled: boolean };

/** The account a signed-in user works in (their first membership); null when the user or account is gone. */
export async function findMembership(db: DbOrTx, userId: string): Promise<Membership | null> {
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
    .orderBy(asc(memberships.createdAt))
    .limit(1);
  if (!row || row.disabledAt) return null;
  return { userId: row.userId, email: row.email, accountId: row.accountId, role: row.role, liveEnabled: row.liveEnabled };
}
