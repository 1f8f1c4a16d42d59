import { notifyAttention } from '@/server/attention/notify-attention';
import { sendAttentionEmail } from '@/server/attention/send-attention-email';
import type { TaskHandler } from './task';

/** The cron's evaluation of every account's attention list (server/attention/notify-attention.ts). */
export const attentionCheck: TaskHandler<'attention_check'> = (db) => async (_p, helpers) => {
  const { scopes, mails } = await notifyAttention(db, new Date());
  helpers.logger.info(`attention: ${scopes} account modes need attention, ${mails} e-mails enqueued`);
};

export const attentionMail: TaskHandler<'attention_mail'> = (db) => async (p) => {
  await sendAttentionEmail(db, p);
};
