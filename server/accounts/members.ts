import { and, asc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '@/server/db/client';
import { memberships, users, type MemberRole } from '@/server/db/schema';
import { AppError } from '@/server/errors';

export async function listMembers(db: DbOrTx, accountId: string) {
  return db
    .select({ userId: memberships.userId, email: users.email, role: memberships.role, createdAt: memberships.createdAt })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(memberships.createdAt));
}

/**
 * Changes a member's role (`role`) or removes them (null). The account's memberships are locked first, so two
 * owners demoting each other at once cannot leave the account without one: it keeps at least one owner.
 */
export async function updateMember(db: Db, accountId: string, userId: string, role: MemberRole | null): Promise<void> {
  await db.transaction(async (tx) => {
    const members = await tx
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(eq(memberships.accountId, accountId))
      .for('update');
    const target = members.find((m) => m.userId === userId);
    if (!target) throw new AppError('resource_missing', 'userId', `No such member: ${userId}.`);
    const owners = members.filter((m) => m.role === 'owner').length;
    if (target.role === 'owner' && role !== 'owner' && owners === 1) throw new AppError('last_owner');
    const where = and(eq(memberships.accountId, accountId), eq(memberships.userId, userId));
    if (role === null) await tx.delete(memberships).where(where);
    else await tx.update(memberships).set({ role }).where(where);
  });
}
