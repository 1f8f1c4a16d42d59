import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import type { DocumentRow } from '@/server/documents/document-row';
import { DOCUMENT_COLUMNS, documentFromSql } from '@/server/documents/load-document';
import { IN_LIVE_BATCH } from './batch-state';
import { claimTakeoverSeconds } from './claim';
import { enqueueSend } from './document-outcomes';

/** Codes of a queued document that waits for an event (credentials saved), not for the lane's send step. */
export const WAITING_FOR_CREDENTIALS = ['ksef_not_connected', 'ksef_auth_failed'];

/**
 * The documents a lane's send step moves on (alias `d`): queued, except those waiting for credentials; claimed
 * without a KSeF reference outside a live batch session (a step's upload, or what a crash left of one); a
 * correction only once its original is out of the pipeline (wakeCorrections wakes the lane then).
 */
export const LANE_WORK = sql`(
  (d.status = 'queued' and coalesce(d.last_error->>'code', '') not in ${WAITING_FOR_CREDENTIALS})
  or (d.status = 'sending' and d.ksef_invoice_ref is null and not ${IN_LIVE_BATCH}))
  and not exists (select 1 from documents o where o.id = d.invoice_id and o.status in ('pending', 'waiting_for_plan_limit', 'queued', 'sending'))`;

/**
 * When the lane's send step may take the document: a queued one at its send_after (null: now); a claim once it is
 * older than the takeover age (its step's upload is surely over by then: claim.ts).
 */
const sendAt = () => sql`(case when d.status = 'queued' then coalesce(d.send_after, now())
  else d.updated_at + make_interval(secs => ${claimTakeoverSeconds()}) end)`;

/** The lane's documents due now, oldest first, at most `bound`. */
export async function dueInLane(db: Db, lane: Scope, bound: number): Promise<DocumentRow[]> {
  const rows = await db.execute<Record<string, unknown>>(sql`
    select ${DOCUMENT_COLUMNS} from documents d
    where d.account_id = ${lane.accountId} and d.mode = ${lane.mode} and ${LANE_WORK} and ${sendAt()} <= now()
    order by d.seq limit ${bound}`);
  return rows.map(documentFromSql);
}

/** Of `ids`, the documents still unsent (queued or claimed, no KSeF reference) and held by no live batch, as they are now. */
export async function unsentOf(db: Db, ids: string[]): Promise<DocumentRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.execute<Record<string, unknown>>(sql`
    select ${DOCUMENT_COLUMNS} from documents d
    where d.id in ${ids} and d.status in ('queued', 'sending') and d.ksef_invoice_ref is null and not ${IN_LIVE_BATCH}
    order by d.seq`);
  return rows.map(documentFromSql);
}

/**
 * The lane's send job at the earliest time one of its documents may go, not before `notBefore` (KSeF's window
 * frees then); none when nothing of the lane waits for the send step.
 */
export async function scheduleLane(db: Db, lane: Scope, notBefore?: Date): Promise<Date | undefined> {
  const [row] = await db.execute<{ at: Date | string | null }>(sql`
    select min(${sendAt()}) as at from documents d
    where d.account_id = ${lane.accountId} and d.mode = ${lane.mode} and d.status in ('queued', 'sending') and ${LANE_WORK}`);
  if (!row?.at) return undefined;
  const at = new Date(Math.max(new Date(row.at).getTime(), notBefore?.getTime() ?? 0));
  await enqueueSend(db, lane, at);
  return at;
}
