import 'server-only';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { users } from '@/server/db/schema';
import { hashPassword, verifyPassword } from '@/server/security/passwords';

/** Spent on unknown e-mails too, so the answer time does not tell which addresses have accounts. */
let dummyHash: Promise<string> | undefined;

/** The user behind an e-mail and password, or null; e-mails compare case-insensitively as sign-up stores them. */
export async function verifySignIn(db: DbOrTx, email: string, password: string): Promise<{ id: string; email: string } | null> {
  const [user] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase()));
  if (!user) {
    await verifyPassword(await (dummyHash ??= hashPassword('not-a-real-password')), password);
    return null;
  }
  return (await verifyPassword(user.passwordHash, password)) ? { id: user.id, email: user.email } : null;
}
