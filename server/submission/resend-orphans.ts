import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { jobKey, laneKeySql, PREPARE_STEP, SEND_STEP } from '@/server/jobs/registry';
import { enqueueSend, enqueueStatus } from './document-outcomes';
import { LANE_WORK, scheduleLane } from './lane-queue';

// the registry's keys: a prefix and the session or batch, or the document's lane (laneKey)
const STATUS_KEY_PREFIX = jobKey('ksef_status', { sessionRef: '', accountId: '', mode: 'test' });
const BATCH_KEY_PREFIX = jobKey('ksef_batch_status', { batchId: '', poll: 0 });

/**
 * Safety net for "a fault loses nothing" (DESIGN invariants 2 and 11): a document on its way to KSeF always has the
 * job that moves it on. One that has had none for a minute (a job lost to a crash, a replaced runner or a race)
 * gets it back: pending gets its lane's prepare job; whatever the lane's send step moves on (lane-queue.ts: queued,
 * or sending without a KSeF reference outside a live batch) its lane's send job, at the lane's earliest due
 * document; sending with a reference its session's status job. A closed batch session, whose documents only its
 * status job moves (the next send's reconciliation settles unclosed ones only), gets that job back the same way;
 * an unclosed one whose lane has no send job due within a minute gets one now, which reconciles it.
 * Left alone: documents waiting for credentials and corrections waiting for their original (woken by those
 * events), and documents held by a live batch session.
 */
export async function resendOrphans(db: Db): Promise<{ prepare: number; send: number; status: number; batchStatus: number; unsettledBatch: number }> {
  const lost = await db.execute<{
    id: string;
    account_id: string;
    mode: 'test' | 'live';
    ksef_session_ref: string | null;
    step: 'prepare' | 'send' | 'status';
  }>(sql`
    select d.id, d.account_id, d.mode, d.ksef_session_ref,
      case when d.status = 'pending' then 'prepare' when d.ksef_invoice_ref is null then 'send' else 'status' end as step
    from documents d
    where d.status in ('pending', 'queued', 'sending') and d.updated_at < now() - interval '1 minute'
      and case when d.status <> 'pending' and d.ksef_invoice_ref is null then ${LANE_WORK}
        else d.kind = 'invoice' or exists (select 1 from documents o where o.id = d.invoice_id and o.status = 'accepted') end
      and not exists (
        select 1 from graphile_worker.jobs j
        where j.key = case
          when d.status = 'pending' then ${laneKeySql(PREPARE_STEP, 'd')} when d.ksef_invoice_ref is null then ${laneKeySql(SEND_STEP, 'd')}
          else ${STATUS_KEY_PREFIX} || d.ksef_session_ref
        end)
    order by d.seq
    limit 500`);
  const lanes = new Set<string>();
  for (const o of lost) {
    const scope = { accountId: o.account_id, mode: o.mode };
    if (o.step === 'status') {
      await db.transaction((tx) => enqueueStatus(tx, { ...scope, ksefSessionRef: o.ksef_session_ref }));
      continue;
    }
    // one prepare step numbers the whole lane, one send step sends it
    const lane = `${o.step}:${o.account_id}:${o.mode}`;
    if (lanes.has(lane)) continue;
    lanes.add(lane);
    if (o.step === 'prepare') await enqueue(db, 'document_prepare', scope);
    else await scheduleLane(db, scope);
  }
  // a closed batch's row is not written again until it is done: updated_at is the moment of its close
  const batches = await db.execute<{ id: string }>(sql`
    select b.id from ksef_batches b
    where b.status = 'closed' and b.updated_at < now() - interval '1 minute'
      and not exists (select 1 from graphile_worker.jobs j where j.key = ${BATCH_KEY_PREFIX} || b.id)
    order by b.created_at
    limit 100`);
  for (const b of batches) await db.transaction((tx) => enqueue(tx, 'ksef_batch_status', { batchId: b.id, poll: 0 }));
  // an unclosed batch session is settled by the lane's next send run (reconcileBatches); after failures in a row
  // (the database away) graphile-worker's back-off can put that run off for many minutes
  const unsettled = await db.execute<{ account_id: string; mode: 'test' | 'live' }>(sql`
    select distinct b.account_id, b.mode from ksef_batches b
    where b.status in ('building', 'opened', 'uploaded') and b.updated_at < now() - interval '1 minute'
      and not exists (
        select 1 from graphile_worker.jobs j
        where j.key = ${laneKeySql(SEND_STEP, 'b')} and (j.locked_at is not null or j.run_at < now() + interval '1 minute'))
    limit 100`);
  for (const u of unsettled) await enqueueSend(db, { accountId: u.account_id, mode: u.mode });
  const count = (step: (typeof lost)[number]['step']) => lost.filter((o) => o.step === step).length;
  return { prepare: count('prepare'), send: count('send'), status: count('status'), batchStatus: batches.length, unsettledBatch: unsettled.length };
}
