import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/server/db/client';
import { users } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { ZEmail, ZPassword } from './password-rules';
import { createAccount } from './create-account';

export const ZSignUp = z.object({ email: ZEmail, password: ZPassword });
export type SignUpInput = z.infer<typeof ZSignUp>;

/**
 * Dashboard sign-up: a user, an account with both modes and its first keys. The test key is returned for the
 * one-time display; the live key stays unseen until live mode is enabled and the merchant makes one.
 */
export async function signUp(db: Db, input: SignUpInput): Promise<{ accountId: string; testKey: string }> {
  const email = input.email.trim().toLowerCase();
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw AppError.detailed('parameter_invalid', 'email', 'email_taken');
  const created = await createAccount(db, { email, password: input.password });
  return { accountId: created.accountId, testKey: created.testKey };
}
