import { sendPasswordResetEmail } from '@/server/accounts/send-password-reset-email';
import type { TaskHandler } from './task';

export const passwordResetMail: TaskHandler<'password_reset_mail'> = (db) => async (p) => {
  await sendPasswordResetEmail(db, p, new Date());
};
