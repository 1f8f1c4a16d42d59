import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/server/db/client';
import { memberships } from '@/server/db/schema';

/** Whether the member gets the account's attention e-mails (stored per membership; on by default). */
export async function attentionEmailsOn(db: DbOrTx, userId: string, accountId: string): Promise<boolean> {
  const [row] = await db
    .select({ on: memberships.attentionEmails })
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)));
  return row?.on ?? false;
}

/** The member's switch on the dashboard's attention list. */
export async function setAttentionEmails(db: DbOrTx, userId: string, accountId: string, on: boolean): Promise<void> {
  await db
    .update(memberships)
    .set({ attentionEmails: on })
    .where(and(eq(memberships.userId, userId), eq(memberships.accountId, accountId)));
}
