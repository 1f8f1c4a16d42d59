import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import type { Scope } from '@/server/db/scope';
import { enqueue } from '@/server/jobs/enqueue';
import { reportFailure } from '@/server/observability/failures';
import { storeDocumentPdf } from '@/server/pdf/store-document-pdf';
import { laneMailer } from './mail-lane';

/**
 * One pdf_render step renders at most this many documents, and starts no new one after PDF_LANE_BUDGET_MS: the
 * PDF worker runs one job at a time, so a bounded step lets other sellers' PDFs in between the steps of a large
 * burst (its next step is due now, behind the jobs already due), while 50 still spreads a job row's cost thin.
 */
export const PDF_LANE_BOUND = 50;
export const PDF_LANE_BUDGET_MS = 5_000;
/** Renders of one document that may throw before it is given up (pdf_gave_up); 2, 4, 8, 16 minutes apart. */
export const PDF_ATTEMPTS = 5;

/**
 * What storeDocumentPdf prints (isPrintable, with its XML and number) and has no PDF yet, with renders left; the
 * condition matches documents_pdf_due_idx. `d` is the documents table.
 */
export const NEEDS_PDF = sql.raw(`d.pdf_file_id is null and d.status in ('accepted', 'queued', 'sending')
  and d.fa3_xml is not null and d.number is not null
  and (d.status = 'accepted' or (d.offline_mode and d.offline_kod_ii_url is not null))
  and d.pdf_attempts < ${PDF_ATTEMPTS}`);

/**
 * pdf_render for a seller lane (DESIGN pipeline): every document of the lane that needs its PDF, oldest first, up
 * to the bound; each stored in its own transaction, and its buyer's e-mail sent right after (the first attempt;
 * refusals are retried by the lane's mail_send). A render that throws is counted on its document and tried again
 * later; the others go on. Then the lane's next step: now when more wait, else at the earliest retry.
 */
export async function renderLane(db: Db, scope: Scope): Promise<void> {
  const started = performance.now();
  const todo = await db.execute<{ id: string }>(sql`select d.id from documents d
    where d.account_id = ${scope.accountId} and d.mode = ${scope.mode} and ${NEEDS_PDF}
      and (d.pdf_retry_at is null or d.pdf_retry_at <= now())
    order by d.seq limit ${PDF_LANE_BOUND + 1}`);
  const mails = mailInTurn(laneMailer(db));
  let done = 0;
  for (const { id } of todo.slice(0, PDF_LANE_BOUND)) {
    if (performance.now() - started > PDF_LANE_BUDGET_MS) break;
    done++;
    const stored = await storeDocumentPdf(db, id, { mail: 'inline' }).catch((err: unknown) => recordRenderFailure(db, id, err));
    if (stored === 'mail_pending') mails.add(id);
  }
  await mails.finished();
  if (done < todo.length) return enqueue(db, 'pdf_render', scope);
  const [next] = await db.execute<{ at: string | null }>(sql`select min(d.pdf_retry_at) as at from documents d
    where d.account_id = ${scope.accountId} and d.mode = ${scope.mode} and ${NEEDS_PDF} and d.pdf_retry_at > now()`);
  if (next?.at) await enqueue(db, 'pdf_render', scope, { runAt: new Date(next.at) });
}

/**
 * The run's e-mails one after another (a refusal stops the rest: laneMailer), while the next PDF renders: the SMTP
 * round trip overlaps the render's CPU instead of adding to it. A database error is the run's failure, at the end.
 */
function mailInTurn(mailer: ReturnType<typeof laneMailer>) {
  let chain: Promise<void> = Promise.resolve();
  let failure: { err: unknown } | undefined;
  return {
    add(documentId: string): void {
      chain = chain
        .then(() => mailer.send(documentId))
        .then(
          () => undefined,
          (err: unknown) => void (failure ??= { err }),
        );
    },
    async finished(): Promise<void> {
      await chain;
      if (failure) throw failure.err;
    },
  };
}

/** Counts the failed render and sets its next try; `updated` stays: nothing the API shows has changed. */
async function recordRenderFailure(db: Db, documentId: string, err: unknown): Promise<void> {
  const [row] = await db.execute<{ attempts: number }>(sql`update documents
    set pdf_attempts = pdf_attempts + 1,
      pdf_retry_at = now() + make_interval(secs => 60 * power(2, pdf_attempts + 1))
    where id = ${documentId} returning pdf_attempts as attempts`);
  const attempt = row?.attempts ?? 0;
  if (attempt >= PDF_ATTEMPTS) reportFailure('pdf_gave_up', { documentId, err, attempt });
  else reportFailure('pdf_render_failed', { documentId, err, attempt, maxAttempts: PDF_ATTEMPTS });
}
