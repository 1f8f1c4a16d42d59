import { sendDocumentEmail } from '@/server/mail/send-document-email';
import { reportFailure } from '@/server/observability/failures';
import type { TaskHandler } from './task';

/** A refusal throws MailRetryError, so graphile-worker retries with its back-off until the job's last attempt. */
export const mailSend: TaskHandler<'mail_send'> = (db) => async (p, helpers) => {
  const outcome = await sendDocumentEmail(db, p.documentId, { lastAttempt: helpers.job.attempts >= helpers.job.max_attempts });
  if (outcome === 'failed') reportFailure('mail_failed', { documentId: p.documentId }); // the document's mailError says why
};
