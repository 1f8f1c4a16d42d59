import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { accounts, attentionNotices, memberships, type Mode } from '@/server/db/schema';
import { enqueue } from '@/server/jobs/enqueue';
import { findAttention } from './find-attention';
import type { AttentionKind } from './kinds';
import { DIGEST_INTERVAL_MS, planNotices, type Notice } from './notice-schedule';

export type NotifyOutcome = { scopes: number; mails: number };

/**
 * attention_check: evaluates every condition of every account and mode at `now` and, per account and mode, writes
 * what planNotices decides and enqueues one attention_mail per member who has not turned them off, in one
 * transaction (invariant 2): a notice is recorded exactly when its e-mails are on their way. One run at a time
 * (the job's key), so two runs cannot both decide to send.
 */
export async function notifyAttention(db: Db, now: Date): Promise<NotifyOutcome> {
  const found = await findAttention(db, now);
  // a notice cleared more than a day ago was last mailed before that: planNotices treats it as none, so it is not read
  const open = await db
    .select()
    .from(attentionNotices)
    .where(or(isNull(attentionNotices.clearedAt), gt(attentionNotices.clearedAt, new Date(now.getTime() - DIGEST_INTERVAL_MS))));

  const scopes = new Map<string, { accountId: string; mode: Mode; entries: (typeof found)[number]['entries']; notices: Notice[] }>();
  const scopeOf = (accountId: string, mode: Mode) => {
    const key = `${accountId}:${mode}`;
    const s = scopes.get(key) ?? { accountId, mode, entries: [], notices: [] };
    scopes.set(key, s);
    return s;
  };
  for (const f of found) scopeOf(f.accountId, f.mode).entries = f.entries;
  for (const n of open) scopeOf(n.accountId, n.mode).notices.push({ ...n, kind: n.kind as AttentionKind });

  let mails = 0;
  for (const s of scopes.values()) {
    const plan = planNotices(
      s.entries.map((e) => e.kind),
      s.notices,
      now,
    );
    if (plan.write.length === 0 && !plan.mail) continue;
    await db.transaction(async (tx) => {
      for (const n of plan.write) {
        const row = { accountId: s.accountId, mode: s.mode, ...n };
        await tx
          .insert(attentionNotices)
          .values(row)
          .onConflictDoUpdate({
            target: [attentionNotices.accountId, attentionNotices.mode, attentionNotices.kind],
            set: { firstNotifiedAt: n.firstNotifiedAt, lastDigestAt: n.lastDigestAt, clearedAt: n.clearedAt },
          });
      }
      if (!plan.mail) return;
      const members = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .innerJoin(accounts, eq(accounts.id, memberships.accountId))
        .where(and(eq(memberships.accountId, s.accountId), eq(memberships.attentionEmails, true), isNull(accounts.disabledAt)));
      const entries = s.entries.map((e) => ({ kind: e.kind, count: e.count, ...(e.limit !== undefined && { limit: e.limit }) }));
      for (const m of members) {
        await enqueue(tx, 'attention_mail', {
          accountId: s.accountId,
          mode: s.mode,
          userId: m.userId,
          type: plan.mail.type,
          entries,
          newKinds: plan.mail.newKinds,
        });
      }
      mails += members.length;
    });
  }
  return { scopes: found.length, mails };
}
