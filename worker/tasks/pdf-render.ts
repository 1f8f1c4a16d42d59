import { storeDocumentPdf } from '@/server/pdf/store-document-pdf';
import type { TaskHandler } from './task';

export const pdfRender: TaskHandler<'pdf_render'> = (db) => async (p) => {
  await storeDocumentPdf(db, p.documentId);
};
