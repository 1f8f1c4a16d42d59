import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { newId } from '@/server/ids';
import { jobKey } from '@/server/jobs/registry';
import type { NormalizedOrder } from '@/server/orders/types';
import type { DocumentRow } from './document-row';
import { documentFromSql } from './load-document';

/**
 * Intake in one prepared statement (no BEGIN/COMMIT round trips, no planning per request): the pending invoice,
 * its first timeline row and its document_prepare job commit together (invariant 2), or, when the order's
 * external_id is known, nothing is written and the existing invoice comes back. The unique index on
 * (account, mode, order external_id) makes concurrent identical requests produce one document. The job is the
 * seller lane's, added as enqueue() adds a lane job: kept when one waits unfetched, so a burst adds few rows.
 */
const INTAKE = `
with mode as (
  select ksef_environment from account_modes where account_id = $1 and mode = $2::mode
), ins as (
  insert into documents (id, account_id, mode, kind, order_external_id, ksef_environment, buyer_email, input)
  select $3, $1, $2::mode, 'invoice', $4, ksef_environment, $5, $6::jsonb from mode
  on conflict do nothing
  returning *
), timeline as (
  insert into document_transitions (document_id, from_status, to_status) select id, null, 'pending' from ins
), removed as (
  select graphile_worker.remove_job($7) from ins
  where not exists (select 1 from graphile_worker.jobs where key = $7 and locked_at is null and attempts = 0 and run_at <= now())
), job as (
  select graphile_worker.add_job('document_prepare', json_build_object('accountId', $1, 'mode', $2::mode), job_key := $7) from removed
)
select ins.*, true as created, (select count(*) from job) as jobs from ins
union all
select d.*, false, 0 from documents d
where d.account_id = $1 and d.mode = $2::mode and d.kind = 'invoice' and d.order_external_id = $4 and not exists (select 1 from ins)`;

export async function createInvoiceDocument(db: Db, scope: Scope, order: NormalizedOrder): Promise<{ document: DocumentRow; created: boolean }> {
  const id = newId('inv');
  const params = [scope.accountId, scope.mode, id, order.externalId, order.buyer.email, JSON.stringify(order), jobKey('document_prepare', scope)];
  const rows = await db.$client.unsafe(INTAKE, params, { prepare: true });
  const row = rows[0];
  // another transaction inserted the same order between our insert attempt and our read: read it now
  if (!row) return createInvoiceDocument(db, scope, order);
  return { document: documentFromSql(row), created: row.created === true };
}
