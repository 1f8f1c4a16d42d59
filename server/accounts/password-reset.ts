import { createHash } from 'node:crypto';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '@/server/db/client';
import { passwordResets, users } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { newId, randomToken } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { sealJson } from '@/server/security/sealed-json';
import { ZEmail, ZPassword } from './password-rules';

/** A reset link works for an hour: long enough to open the mail, short enough that an old mailbox copy is dead. */
export const RESET_TTL_MS = 3600 * 1000;
/** At most this many reset e-mails per address in RESET_WINDOW_MS; further requests send nothing (and say the same). */
export const RESET_REQUESTS_PER_WINDOW = 3;
export const RESET_WINDOW_MS = 3600 * 1000;

export const ZResetRequest = z.object({ email: ZEmail });
/** The new password follows sign-up's rules. */
export const ZResetPassword = z.object({ token: z.string().min(1).max(100), password: ZPassword });

const hashResetToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * Someone asks for a reset link for an address. The caller answers the same whatever happens here, so nobody learns
 * which addresses have users: an unknown address and one over its rate limit send nothing. Otherwise the open links
 * of the user are revoked and a new one is stored (its token's hash only) with its e-mail job in one transaction
 * (invariant 2); the job carries the token sealed with APP_SECRET, as an invitation's does.
 */
export async function requestPasswordReset(db: Db, input: z.infer<typeof ZResetRequest>, now: Date): Promise<'sent' | 'unknown' | 'limited'> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email.trim().toLowerCase()));
  if (!user) return 'unknown';
  const since = new Date(now.getTime() - RESET_WINDOW_MS);
  const [recent] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, user.id), gt(passwordResets.createdAt, since)));
  if ((recent?.n ?? 0) >= RESET_REQUESTS_PER_WINDOW) return 'limited';
  const token = randomToken(192);
  const id = newId('pr');
  await db.transaction(async (tx) => {
    await tx
      .update(passwordResets)
      .set({ revokedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), isNull(passwordResets.revokedAt)));
    await tx
      .insert(passwordResets)
      .values({ id, userId: user.id, tokenHash: hashResetToken(token), createdAt: now, expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
    await enqueue(tx, 'password_reset_mail', { resetId: id, sealedToken: sealJson(token) });
  });
  return 'sent';
}

/** A link that still works: known, not used, not replaced by a newer one, not expired. */
async function findOpenReset(db: DbOrTx, token: string, now: Date, lock = false) {
  const query = db
    .select({ id: passwordResets.id, userId: passwordResets.userId, email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(
      and(
        eq(passwordResets.tokenHash, hashResetToken(token)),
        isNull(passwordResets.usedAt),
        isNull(passwordResets.revokedAt),
        gt(passwordResets.expiresAt, now),
      ),
    );
  const [row] = lock ? await query.for('update', { of: passwordResets }) : await query;
  if (!row) throw new AppError('reset_invalid', 'token');
  return row;
}

/** The reset page shows whose password the link sets (the link proves the mailbox) before asking for it. */
export async function previewPasswordReset(db: DbOrTx, token: string, now: Date): Promise<{ email: string }> {
  return { email: (await findOpenReset(db, token, now)).email };
}

/** The link is spent: the user's password becomes the new one, and the link works no more. */
export async function resetPassword(db: Db, token: string, passwordHash: string, now: Date): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const reset = await findOpenReset(tx, token, now, true);
    await tx.update(users).set({ passwordHash, sessionsValidFrom: now }).where(eq(users.id, reset.userId));
    await tx.update(passwordResets).set({ usedAt: now }).where(eq(passwordResets.id, reset.id));
    return { email: reset.email };
  });
}
