import type { Task } from 'graphile-worker';
import type { Db } from '../../server/db/client';
import { storeDocumentPdf } from '../../server/pdf/store-document-pdf';
import { ZDocumentJob } from './payloads';

export const pdfRender =
  (db: Db): Task =>
  async (payload) => {
    await storeDocumentPdf(db, ZDocumentJob.parse(payload).documentId);
  };
