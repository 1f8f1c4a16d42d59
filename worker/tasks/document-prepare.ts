import { prepareLane } from '@/server/documents/prepare-document';
import type { TaskHandler } from './task';

export const documentPrepare: TaskHandler<'document_prepare'> = (db) => async (p) => {
  await prepareLane(db, p);
};
