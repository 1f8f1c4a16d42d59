import { and, asc, inArray } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { inScope, type Scope } from '@/server/db/scope';
import { ksefBatches } from '@/server/db/schema';
import type { KsefClient } from '@/server/ksef/client';
import { KsefApiError } from '@/server/ksef/http';
import { getSessionStatus } from '@/server/ksef/online-session';
import { closeBatchSession } from '@/server/ksef/batch-session';
import { abandonBatch, markBatchClosed, type BatchRow } from './batch-state';

const OPEN = 100;

/** Batches of the scope a crash (or an unanswered close) left between recording and closing. */
export async function unfinishedBatches(db: Db, scope: Scope): Promise<BatchRow[]> {
  return db
    .select()
    .from(ksefBatches)
    .where(and(inScope(ksefBatches, scope), inArray(ksefBatches.status, ['building', 'opened', 'uploaded'])))
    .orderBy(asc(ksefBatches.createdAt));
}

/**
 * Before anything of the scope is sent, KSeF's session status settles each unfinished batch (invariant 4):
 * never opened or still open (100) means KSeF processes nothing of it, so a batch with every part uploaded is
 * closed now and any other is abandoned; a session past 100 was closed and goes to the status job.
 */
export async function reconcileBatches(db: Db, batches: BatchRow[], client: KsefClient, token: string): Promise<void> {
  for (const batch of batches) {
    if (!batch.referenceNumber) {
      await abandonBatch(db, batch.id, 'the session was not recorded as opened');
      continue;
    }
    let code: number;
    try {
      code = (await getSessionStatus(client, token, batch.referenceNumber)).status.code;
    } catch (err) {
      if (err instanceof KsefApiError && err.status < 500 && err.status !== 401) {
        await abandonBatch(db, batch.id, `KSeF does not know the session (${err.message})`);
        continue;
      }
      throw err;
    }
    if (code !== OPEN) {
      await markBatchClosed(db, batch.id);
      continue;
    }
    if (batch.status === 'uploaded') {
      try {
        await closeBatchSession(client, token, batch.referenceNumber);
        await markBatchClosed(db, batch.id);
      } catch (err) {
        if (!(err instanceof KsefApiError)) throw err;
        await settleRefusedClose(db, client, token, batch.id, batch.referenceNumber, err.message);
      }
      continue;
    }
    await abandonBatch(db, batch.id, `session ${batch.referenceNumber} still open`);
  }
}

/**
 * A close KSeF refused. The step that uploaded the batch and a step reconciling it (it found the batch uploaded) may
 * both close it, and the second close is refused while KSeF processes the session the first one closed: so the
 * refusal alone does not say "never processed". KSeF's session status decides (invariant 4): past open, a close took
 * and the batch is closed; still open, none did, KSeF processes nothing of it, and it is abandoned.
 */
export async function settleRefusedClose(db: Db, client: KsefClient, token: string, batchId: string, referenceNumber: string, reason: string) {
  const code = (await getSessionStatus(client, token, referenceNumber)).status.code;
  if (code !== OPEN) {
    await markBatchClosed(db, batchId);
    return 'closed' as const;
  }
  await abandonBatch(db, batchId, reason);
  return 'abandoned' as const;
}
