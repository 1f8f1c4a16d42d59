import { markMissedDeadlines } from '@/server/submission/offline-deadlines';
import { runOfflineTrigger } from '@/server/submission/offline-trigger';
import type { TaskHandler } from './task';

export const offlineIssue: TaskHandler<'offline_issue'> = (db) => async (p) => {
  await runOfflineTrigger(db, p.documentId, p.dueAt, new Date());
};

export const offlineDeadline: TaskHandler<'offline_deadline'> = (db) => async (p) => {
  await markMissedDeadlines(db, new Date(), p.documentId);
};
