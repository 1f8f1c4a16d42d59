import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '@/server/db/client';
import { accounts, invites, MEMBER_ROLES, memberships, users, type MemberRole } from '@/server/db/schema';
import { AppError } from '@/server/errors';
import { newId, randomToken } from '@/server/ids';
import { enqueue } from '@/server/jobs/enqueue';
import { sealJson } from '@/server/security/sealed-json';

/** An invitation link works for a week; after that the owner invites again. */
export const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

export const ZInvite = z.object({ email: z.email().max(254), role: z.enum(MEMBER_ROLES) });

export const hashInviteToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/**
 * An owner invites a person: the invite row (the token's SHA-256 only) and its e-mail job in one transaction
 * (invariant 2). The job carries the token sealed with APP_SECRET, so the database alone never reveals a working
 * link. A newer invitation of the same address replaces an open one.
 */
export async function createInvite(db: Db, by: { accountId: string; userId: string }, input: z.infer<typeof ZInvite>, now: Date): Promise<{ id: string }> {
  const email = input.email.trim().toLowerCase();
  const [member] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, by.accountId), eq(users.email, email)));
  if (member) throw new AppError('already_member', 'email');
  const token = randomToken(192);
  const id = newId('mi');
  await db.transaction(async (tx) => {
    await tx
      .update(invites)
      .set({ revokedAt: now })
      .where(and(eq(invites.accountId, by.accountId), eq(invites.email, email), isNull(invites.acceptedAt), isNull(invites.revokedAt)));
    await tx.insert(invites).values({
      id,
      accountId: by.accountId,
      email,
      role: input.role,
      tokenHash: hashInviteToken(token),
      invitedBy: by.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITE_TTL_MS),
    });
    await enqueue(tx, 'invite_mail', { inviteId: id, sealedToken: sealJson(token) });
  });
  return { id };
}

/** The account's invitations not yet accepted or revoked, newest first; an expired one says so. */
export async function listInvites(db: DbOrTx, accountId: string, now: Date) {
  const rows = await db
    .select({ id: invites.id, email: invites.email, role: invites.role, createdAt: invites.createdAt, expiresAt: invites.expiresAt })
    .from(invites)
    .where(and(eq(invites.accountId, accountId), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .orderBy(desc(invites.createdAt));
  return rows.map((r) => ({ ...r, expired: r.expiresAt <= now }));
}

export async function revokeInvite(db: DbOrTx, accountId: string, id: string, now: Date): Promise<void> {
  const rows = await db
    .update(invites)
    .set({ revokedAt: now })
    .where(and(eq(invites.id, id), eq(invites.accountId, accountId), isNull(invites.acceptedAt), isNull(invites.revokedAt)))
    .returning({ id: invites.id });
  if (rows.length === 0) throw new AppError('resource_missing', 'id', `No open invitation: ${id}.`);
}

/** An invitation that can still be accepted: known, not accepted, not revoked, not expired. */
async function findOpenInvite(db: DbOrTx, token: string, now: Date, lock = false) {
  const query = db
    .select({ id: invites.id, accountId: invites.accountId, email: invites.email, role: invites.role, accountEmail: accounts.email })
    .from(invites)
    .innerJoin(accounts, eq(accounts.id, invites.accountId))
    .where(
      and(
        eq(invites.tokenHash, hashInviteToken(token)),
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
        gt(invites.expiresAt, now),
        isNull(accounts.disabledAt),
      ),
    );
  const [row] = lock ? await query.for('update', { of: invites }) : await query;
  if (!row) throw new AppError('invite_invalid', 'token');
  return row;
}

/** What the invitation page shows before the person accepts. */
export async function previewInvite(db: DbOrTx, token: string, now: Date): Promise<{ email: string; role: MemberRole; accountEmail: string | null }> {
  const row = await findOpenInvite(db, token, now);
  return { email: row.email, role: row.role, accountEmail: row.accountEmail };
}

/**
 * A signed-in user accepts: the invitation must be to their address (the link proves the mailbox, the session the
 * user). A user may be a member of several accounts (an accountant's clients); the dashboard switches between them.
 */
export async function acceptInvite(db: Db, token: string, user: { id: string }, now: Date): Promise<{ accountId: string; role: MemberRole }> {
  return db.transaction(async (tx) => {
    const invite = await findOpenInvite(tx, token, now, true);
    const [who] = await tx.select({ email: users.email }).from(users).where(eq(users.id, user.id));
    if (!who || who.email !== invite.email) throw new AppError('invite_email_mismatch');
    const [existing] = await tx
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(and(eq(memberships.userId, user.id), eq(memberships.accountId, invite.accountId)));
    if (existing) throw new AppError('already_member');
    await tx.insert(memberships).values({ userId: user.id, accountId: invite.accountId, role: invite.role, createdAt: now });
    await tx.update(invites).set({ acceptedAt: now }).where(eq(invites.id, invite.id));
    return { accountId: invite.accountId, role: invite.role };
  });
}

/** A new person accepts by choosing a password: a user of the invited address, a member of the inviting account only. */
export async function signUpFromInvite(db: Db, token: string, passwordHash: string, now: Date): Promise<{ email: string }> {
  return db.transaction(async (tx) => {
    const invite = await findOpenInvite(tx, token, now, true);
    const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, invite.email));
    if (taken) throw AppError.detailed('parameter_invalid', 'email', 'email_taken_sign_in');
    const userId = newId('usr');
    await tx.insert(users).values({ id: userId, email: invite.email, passwordHash, createdAt: now });
    await tx.insert(memberships).values({ userId, accountId: invite.accountId, role: invite.role, createdAt: now });
    await tx.update(invites).set({ acceptedAt: now }).where(eq(invites.id, invite.id));
    return { email: invite.email };
  });
}
