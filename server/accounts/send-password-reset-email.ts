import { and, eq, gt, isNull } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db } from '@/server/db/client';
import { passwordResets, users } from '@/server/db/schema';
import type { JobPayload } from '@/server/jobs/registry';
import { sendMail } from '@/server/mail/send-mail';
import { metrics } from '@/server/observability/metrics';
import { unsealJson } from '@/server/security/sealed-json';
import { buildPasswordResetEmail } from './build-password-reset-email';

/**
 * password_reset_mail: the e-mail with the one-time link. A link used, replaced or expired before the job runs
 * sends nothing; an SMTP failure throws and graphile-worker retries.
 */
export async function sendPasswordResetEmail(db: Db, p: JobPayload<'password_reset_mail'>, now: Date): Promise<'sent' | 'skipped'> {
  const [reset] = await db
    .select({ email: users.email })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(and(eq(passwordResets.id, p.resetId), isNull(passwordResets.usedAt), isNull(passwordResets.revokedAt), gt(passwordResets.expiresAt, now)));
  if (!reset) return 'skipped';
  const { SMTP_URL: smtpUrl, MAIL_FROM: from, PUBLIC_BASE_URL: base } = config();
  if (!smtpUrl || !/^smtps?:\/\//.test(smtpUrl)) throw new Error('SMTP_URL is not set to an smtp:// or smtps:// URL: the reset link cannot go');
  const link = `${base}/reset-password/${unsealJson<string>(p.sealedToken)}`;
  try {
    await sendMail(smtpUrl, buildPasswordResetEmail({ to: reset.email, from, link }));
  } catch (err) {
    metrics().externalErrors.inc({ service: 'smtp' });
    throw err;
  }
  return 'sent';
}
