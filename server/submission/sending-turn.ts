import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { jobLock, type JobPayload } from '@/server/jobs/registry';
import { underWorkerLock } from '@/server/jobs/worker-locks';
import { sendDocument } from './send-document';

/** How long a send job waits after finding its seller's turn taken for the `busy`-th time: 0.25 s doubling to 8 s. */
export const busyRetryMs = (busy: number): number => Math.min(8_000, 250 * 2 ** busy);

/**
 * ksef_send: the document's send step in its seller's turn. A seller's send steps run one at a time across every
 * worker process (DESIGN: per-seller KSeF work is serialised): one online session opened at a time, no step
 * building a batch only to find its documents claimed by another. The turn makes this efficient, not correct:
 * a document is uploaded only by the step that claimed it (claim.ts, invariant 4). The turn is a worker lock (server/jobs/worker-locks.ts) held under
 * the job's worker id for the whole step, which spans several transactions and KSeF calls. A job that finds
 * another step of its seller running (a batch upload can take seconds) runs again shortly, backing off while the
 * turn stays taken. graphile-worker named queues, one per seller, did this before; a fetch locks every queue row
 * ever made, so its cost grew with the number of sellers (README, capacity).
 */
export async function sendInTurn(db: Db, job: JobPayload<'ksef_send'>, holder: string, now = Date.now()): Promise<void> {
  const turn = await underWorkerLock(db, jobLock('ksef_send', job)!, holder, () => sendDocument(db, job.documentId));
  if (!turn.ran) await enqueue(db, 'ksef_send', { ...job, busy: job.busy + 1 }, { runAt: new Date(now + busyRetryMs(job.busy)) });
}
