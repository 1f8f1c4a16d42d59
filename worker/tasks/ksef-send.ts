import type { Task } from 'graphile-worker';
import type { Db } from '../../server/db/client';
import { sendDocument } from '../../server/submission/send-document';
import { ZDocumentJob } from './payloads';

export const ksefSend =
  (db: Db): Task =>
  async (payload) => {
    await sendDocument(db, ZDocumentJob.parse(payload).documentId);
  };
