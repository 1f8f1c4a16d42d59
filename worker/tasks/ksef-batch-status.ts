import { pollBatchStatus } from '@/server/submission/poll-batch-status';
import type { TaskHandler } from './task';

export const ksefBatchStatus: TaskHandler<'ksef_batch_status'> = (db) => async (p) => {
  await pollBatchStatus(db, p.batchId, p.poll);
};
