import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { Db } from '../../server/db/client';
import { pollBatchStatus } from '../../server/submission/poll-batch-status';

const ZBatchStatusJob = z.object({ batchId: z.string().min(1), poll: z.number().int().min(0) });

export const ksefBatchStatus =
  (db: Db): Task =>
  async (payload) => {
    const { batchId, poll } = ZBatchStatusJob.parse(payload);
    await pollBatchStatus(db, batchId, poll);
  };
