import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { enqueueStatus } from './document-outcomes';
import { jobKey, PREPARE_STEP } from '@/server/jobs/registry';

/** Codes of a queued document that waits for an event (credentials saved), not for a job. */
const WAITING_FOR_CREDENTIALS = ['ksef_not_connected', 'ksef_auth_failed'];
// the registry's keys are a prefix and the document id (its test pins that): the query joins on them
const SEND_KEY_PREFIX = jobKey('ksef_send', { documentId: '', accountId: '', mode: 'test' });
const STATUS_KEY_PREFIX = jobKey('ksef_status', { sessionRef: '', accountId: '', mode: 'test' });
// the registry's laneKey of the document's lane
const PREPARE_KEY = sql`${PREPARE_STEP}::text || ':' || d.account_id || ':' || d.mode::text`;
const BATCH_KEY_PREFIX = jobKey('ksef_batch_status', { batchId: '', poll: 0 });

/**
 * Safety net for "a fault loses nothing" (DESIGN invariant 2): a document on its way to KSeF always has the job
 * that moves it on. One that has had none for a minute (a job lost to a crash, a replaced runner or a race) gets
 * it back: pending gets its prepare job; queued, or sending without a KSeF reference outside a live batch, gets
 * its send job (sendDocument first looks for an earlier submission in the recorded session); sending with a
 * reference gets its session's status job. A closed batch session, whose documents only its status job moves (the next
 * send's reconciliation settles unclosed ones only), gets that job back the same way; an unclosed one whose
 * documents have no send job due within a minute gets one now, which reconciles it.
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
      and not (d.status = 'queued' and coalesce(d.last_error->>'code', '') in ${WAITING_FOR_CREDENTIALS})
      and (d.kind = 'invoice' or exists (select 1 from documents o where o.id = d.invoice_id and o.status = 'accepted'))
      and not exists (
        select 1 from ksef_batch_documents bd join ksef_batches b on b.id = bd.batch_id
        where bd.document_id = d.id and b.status in ('building', 'opened', 'uploaded', 'closed')
          and (b.status = 'building' or b.reference_number = d.ksef_session_ref))
      and not exists (
        select 1 from graphile_worker.jobs j
        where j.key = case
          when d.status = 'pending' then ${PREPARE_KEY} when d.ksef_invoice_ref is null then ${SEND_KEY_PREFIX} || d.id else ${STATUS_KEY_PREFIX} || d.ksef_session_ref
        end)
    order by d.seq
    limit 500`);
  const lanes = new Set<string>();
  for (const o of lost) {
    const scope = { accountId: o.account_id, mode: o.mode };
    if (o.step === 'prepare') {
      // one prepare step numbers the whole lane
      const lane = jobKey('document_prepare', scope);
      if (!lanes.has(lane)) await enqueue(db, 'document_prepare', scope);
      lanes.add(lane);
      continue;
    }
    await db.transaction((tx) =>
      o.step === 'status' ? enqueueStatus(tx, { ...scope, ksefSessionRef: o.ksef_session_ref }) : enqueue(tx, 'ksef_send', { documentId: o.id, ...scope }),
    );
  }
  // a closed batch's row is not written again until it is done: updated_at is the moment of its close
  const batches = await db.execute<{ id: string }>(sql`
    select b.id from ksef_batches b
    where b.status = 'closed' and b.updated_at < now() - interval '1 minute'
      and not exists (select 1 from graphile_worker.jobs j where j.key = ${BATCH_KEY_PREFIX} || b.id)
    order by b.created_at
    limit 100`);
  for (const b of batches) await db.transaction((tx) => enqueue(tx, 'ksef_batch_status', { batchId: b.id, poll: 0 }));
  // an unclosed batch session is settled by the scope's next send (reconcileBatches); after failures in a row
  // (the database away) graphile-worker's back-off can put its one send job off for many minutes
  const unsettled = await db.execute<{ document_id: string; account_id: string; mode: 'test' | 'live' }>(sql`
    select distinct on (b.id) bd.document_id, b.account_id, b.mode from ksef_batches b
    join ksef_batch_documents bd on bd.batch_id = b.id
    join documents d on d.id = bd.document_id
    where b.status in ('building', 'opened', 'uploaded') and b.updated_at < now() - interval '1 minute'
      and not exists (
        select 1 from ksef_batch_documents m join graphile_worker.jobs j on j.key = ${SEND_KEY_PREFIX} || m.document_id
        where m.batch_id = b.id and (j.locked_at is not null or j.run_at < now() + interval '1 minute'))
    order by b.id, d.seq
    limit 100`);
  for (const u of unsettled) await db.transaction((tx) => enqueue(tx, 'ksef_send', { documentId: u.document_id, accountId: u.account_id, mode: u.mode }));
  const count = (step: (typeof lost)[number]['step']) => lost.filter((o) => o.step === step).length;
  return { prepare: count('prepare'), send: count('send'), status: count('status'), batchStatus: batches.length, unsettledBatch: unsettled.length };
}
