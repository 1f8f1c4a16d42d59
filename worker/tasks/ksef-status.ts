import { pollSessionStatus } from '@/server/submission/poll-status';
import type { TaskHandler } from './task';

export const ksefStatus: TaskHandler<'ksef_status'> = (db) => async (p) => {
  await pollSessionStatus(db, p);
};
