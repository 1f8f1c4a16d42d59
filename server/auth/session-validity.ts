import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { users } from '@/server/db/schema';

/**
 * The user a signed session speaks for, or null when it no longer may: the user is gone, or reset the password
 * after this session signed in (a JWT session cannot be revoked where it is stored, so it is refused where it is
 * read). Sessions from before sign-in times were recorded count as signed in at 0.
 */
export async function currentSessionUser(db: DbOrTx, userId: string | null | undefined, signedInAt: number | undefined): Promise<string | null> {
  if (!userId) return null;
  const [user] = await db.select({ validFrom: users.sessionsValidFrom }).from(users).where(eq(users.id, userId));
  if (!user) return null;
  return user.validFrom && (signedInAt ?? 0) < user.validFrom.getTime() ? null : userId;
}
