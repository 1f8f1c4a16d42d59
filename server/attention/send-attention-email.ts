import { and, eq } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import { memberships, users } from '@/server/db/schema';
import type { JobPayload } from '@/server/jobs/registry';
import { sendMail } from '@/server/mail/send-mail';
import { metrics } from '@/server/observability/metrics';
import { buildAttentionEmail } from './build-attention-email';

export type AttentionMailOutcome = 'sent' | 'skipped';

/**
 * attention_mail: one member's e-mail. The opt-out and the membership are read again at send time, so a member
 * who turned the e-mails off or left since the check gets nothing. An SMTP failure throws, and graphile-worker
 * retries with its back-off; a message lost between the server's acceptance and the job's completion is sent
 * again (an alert may arrive twice, never not at all).
 */
export async function sendAttentionEmail(db: Db, p: JobPayload<'attention_mail'>): Promise<AttentionMailOutcome> {
  const [member] = await db
    .select({ email: users.email, on: memberships.attentionEmails })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.userId, p.userId), eq(memberships.accountId, p.accountId)));
  if (!member?.on) return 'skipped';
  const { SMTP_URL: smtpUrl, MAIL_FROM: from, PUBLIC_BASE_URL: base } = config();
  if (!smtpUrl || !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL is not set to an smtp:// or smtps:// URL: the attention e-mail cannot go');
  const message = buildAttentionEmail({
    type: p.type,
    mode: p.mode,
    entries: p.entries,
    newKinds: p.newKinds,
    dashboardUrl: base ? `${base}/dashboard` : null,
    to: member.email,
    from,
  });
  try {
    await sendMail(smtpUrl, message);
  } catch (err) {
    metrics().externalErrors.inc({ service: 'smtp' });
    throw err;
  }
  return 'sent';
}
