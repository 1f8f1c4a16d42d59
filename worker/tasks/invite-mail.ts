import { sendInviteEmail } from '@/server/accounts/send-invite-email';
import type { TaskHandler } from './task';

export const inviteMail: TaskHandler<'invite_mail'> = (db) => async (p) => {
  await sendInviteEmail(db, p, new Date());
};
