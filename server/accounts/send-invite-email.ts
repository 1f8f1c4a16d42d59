import { and, eq, gt, isNull } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import { invites, users } from '@/server/db/schema';
import type { JobPayload } from '@/server/jobs/registry';
import { sendMail } from '@/server/mail/send-mail';
import { metrics } from '@/server/observability/metrics';
import { unsealJson } from '@/server/security/sealed-json';
import { buildInviteEmail } from './build-invite-email';

/**
 * invite_mail: the invitation's e-mail with its one-time link. An invitation revoked, accepted or expired before
 * the job runs sends nothing; an SMTP failure throws and graphile-worker retries.
 */
export async function sendInviteEmail(db: Db, p: JobPayload<'invite_mail'>, now: Date): Promise<'sent' | 'skipped'> {
  const [invite] = await db
    .select({ email: invites.email, role: invites.role, invitedBy: users.email })
    .from(invites)
    .innerJoin(users, eq(users.id, invites.invitedBy))
    .where(and(eq(invites.id, p.inviteId), isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now)));
  if (!invite) return 'skipped';
  const { SMTP_URL: smtpUrl, MAIL_FROM: from, PUBLIC_BASE_URL: base } = config();
  if (!smtpUrl || !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL is not set to an smtp:// or smtps:// URL: the invitation cannot go');
  const link = `${base}/invite/${unsealJson<string>(p.sealedToken)}`;
  try {
    await sendMail(smtpUrl, buildInviteEmail({ to: invite.email, from, role: invite.role, invitedBy: invite.invitedBy, link }));
  } catch (err) {
    metrics().externalErrors.inc({ service: 'smtp' });
    throw err;
  }
  return 'sent';
}
