import type { Db } from '@/server/db/client';
import { jobLock, type JobPayload } from '@/server/jobs/registry';
import { underWorkerLock } from '@/server/jobs/worker-locks';
import { enqueueSend } from './document-outcomes';
import { sendLane } from './send-lane';

/** How soon a lane run that found its lane's other run still sending looks again. */
export const TURN_TAKEN_RETRY_MS = 1_000;

/**
 * ksef_send in its lane's turn. One job key per lane (registry `lane`) leaves one waiting row, but a run enqueued
 * while another runs (a new document, a requeue) is a second row that could run beside the first: both would
 * reconcile and build the same batch, or open two online sessions, to find the documents claimed by the other.
 * The turn, a worker lock held under the job's worker id (server/jobs/worker-locks.ts), keeps them apart; its key
 * is the job's graphile-worker flag, so fetches skip the second run while the first holds it. It makes the lane
 * efficient, not correct: a document is uploaded only by the step that claimed it (claim.ts, invariant 4). A run
 * fetched before its process saw the lock taken runs again shortly: the first run's own end may have read the
 * lane before the new document committed.
 */
export async function sendInTurn(db: Db, job: JobPayload<'ksef_send'>, holder: string, now = Date.now()): Promise<void> {
  const turn = await underWorkerLock(db, jobLock('ksef_send', job)!, holder, () => sendLane(db, job));
  if (!turn.ran) await enqueueSend(db, job, new Date(now + TURN_TAKEN_RETRY_MS));
}
