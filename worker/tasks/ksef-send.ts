import { sendInTurn } from '@/server/submission/sending-turn';
import type { TaskHandler } from './task';

export const ksefSend: TaskHandler<'ksef_send'> = (db) => async (p, helpers) => {
  // graphile-worker sets locked_by on every job it hands to a task
  await sendInTurn(db, p, helpers.job.locked_by!);
};
