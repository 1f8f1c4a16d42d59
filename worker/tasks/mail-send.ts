import type { Task } from 'graphile-worker';
import type { Db } from '../../server/db/client';
import { sendDocumentEmail } from '../../server/mail/send-document-email';
import { ZDocumentJob } from './payloads';

/** A refusal throws MailRetryError, so graphile-worker retries with its back-off until the job's last attempt. */
export const mailSend =
  (db: Db): Task =>
  async (payload, helpers) => {
    const { documentId } = ZDocumentJob.parse(payload);
    const outcome = await sendDocumentEmail(db, documentId, { lastAttempt: helpers.job.attempts >= helpers.job.max_attempts });
    if (outcome === 'failed') helpers.logger.warn(`e-mail for ${documentId} failed; see the document's mailError`);
  };
