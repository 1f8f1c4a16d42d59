import { pollDocumentStatus } from '@/server/submission/poll-status';
import type { TaskHandler } from './task';

export const ksefStatus: TaskHandler<'ksef_status'> = (db) => async (p) => {
  await pollDocumentStatus(db, p.documentId, p.poll);
};
