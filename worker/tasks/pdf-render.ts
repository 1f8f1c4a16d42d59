import { renderLane } from '@/server/pdf/render-lane';
import type { TaskHandler } from './task';

export const pdfRender: TaskHandler<'pdf_render'> = (db) => async (p) => {
  await renderLane(db, p);
};
