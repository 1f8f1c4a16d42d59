import { mailLane } from '@/server/mail/mail-lane';
import type { TaskHandler } from './task';

/** A lane's refused e-mails, each when its own retry time comes (server/mail/mail-lane.ts). */
export const mailSend: TaskHandler<'mail_send'> = (db) => async (p) => {
  await mailLane(db, p);
};
