import { sendDocument } from '@/server/submission/send-document';
import type { TaskHandler } from './task';

export const ksefSend: TaskHandler<'ksef_send'> = (db) => async (p) => {
  await sendDocument(db, p.documentId);
};
