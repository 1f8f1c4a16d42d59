import { renderLane } from '@/server/mail/pdf-lane';
import type { TaskHandler } from './task';

export const pdfRender: TaskHandler<'pdf_render'> = (db) => async (p) => {
  await renderLane(db, p);
};
