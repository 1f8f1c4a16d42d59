import type { Task } from 'graphile-worker';
import type { Db } from '../../server/db/client';
import { pollDocumentStatus } from '../../server/submission/poll-status';
import { ZStatusJob } from './payloads';

export const ksefStatus =
  (db: Db): Task =>
  async (payload) => {
    const { documentId, poll } = ZStatusJob.parse(payload);
    await pollDocumentStatus(db, documentId, poll);
  };
