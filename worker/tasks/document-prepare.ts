import type { Task } from 'graphile-worker';
import type { Db } from '../../server/db/client';
import { prepareDocument } from '../../server/documents/prepare-document';
import { ZDocumentJob } from './payloads';

export const documentPrepare =
  (db: Db): Task =>
  async (payload) => {
    await prepareDocument(db, ZDocumentJob.parse(payload).documentId);
  };
