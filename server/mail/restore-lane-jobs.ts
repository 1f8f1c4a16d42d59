import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { laneKeySql, MAIL_STEP, PDF_STEP } from '@/server/jobs/registry';
import { NEEDS_PDF } from './pdf-lane';
import { MAILABLE } from './send-document-email';

/**
 * ksef_sweep's part for PDFs and e-mails (invariant 11): a lane with a document that needs its PDF, or a pending
 * e-mail, and no pdf_render or mail_send of its key (a job lost to a crash, or a worker stopped between a stored
 * PDF and its inline e-mail) gets that job back, due at the lane's earliest retry time. A minute's grace covers
 * the inline e-mail a PDF step is about to send; an e-mail counts only while sendDocumentEmail could claim it (an
 * unclaimable one would bring its job back every minute). Returns the lanes restored.
 */
export async function restorePdfMailJobs(db: Db): Promise<{ pdf: number; mail: number }> {
  const lost = await db.execute<{ step: 'pdf' | 'mail'; account_id: string; mode: 'test' | 'live'; at: string | null }>(sql`
    select ${PDF_STEP}::text as step, d.account_id, d.mode, min(coalesce(d.pdf_retry_at, now())) as at from documents d
    where ${NEEDS_PDF} and d.updated_at < now() - interval '1 minute'
      and not exists (select 1 from graphile_worker.jobs j where j.key = ${laneKeySql(PDF_STEP, 'd')})
    group by d.account_id, d.mode
    union all
    select ${MAIL_STEP}::text, d.account_id, d.mode, min(coalesce(d.mail_retry_at, now())) from documents d
    where d.mail_status = 'pending' and d.updated_at < now() - interval '1 minute'
      and ${MAILABLE}
      and not exists (select 1 from graphile_worker.jobs j where j.key = ${laneKeySql(MAIL_STEP, 'd')})
    group by d.account_id, d.mode
    limit 500`);
  for (const l of lost) {
    const scope = { accountId: l.account_id, mode: l.mode };
    const runAt = l.at && new Date(l.at) > new Date() ? new Date(l.at) : undefined;
    await enqueue(db, l.step === 'pdf' ? 'pdf_render' : 'mail_send', scope, { runAt });
  }
  return { pdf: lost.filter((l) => l.step === 'pdf').length, mail: lost.filter((l) => l.step === 'mail').length };
}
