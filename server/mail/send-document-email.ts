import { and, eq, sql } from 'drizzle-orm';
import { config } from '@/server/config';
import type { Db, DbOrTx, Tx } from '@/server/db/client';
import { enqueue } from '@/server/jobs/enqueue';
import { MAIL_ATTEMPTS } from '@/server/jobs/registry';
import { documents, files } from '@/server/db/schema';
import { pdfUrl } from '@/server/documents/serialize-document';
import { nextUpdatedAt, patchDocument, type DocumentPatch } from '@/server/documents/patch-document';
import { readSellerName } from '@/server/pdf/issued-facts';
import { metrics } from '@/server/observability/metrics';
import { loadDocument } from '@/server/documents/load-document';
import { buildInvoiceEmail } from './build-invoice-email';
import { sendMail } from './send-mail';
import { mailRetryDelayMs } from './mail-retry';

export type MailOutcome = 'sent' | 'retry' | 'failed' | 'not_pending';

const inFlight = (at: Date) =>
  `Delivery started at ${at.toISOString()} and did not report back (worker stopped mid-send?): the e-mail may or may not ` +
  'have arrived. It is not resent automatically; check with the buyer before resending.';

/**
 * The buyer's e-mail with the PDF, at most once per document (the PDF lane's first try, the mail lane's retries).
 * Before the SMTP call a claim commits (mailStatus leaves `pending`, written as `failed` with the in-flight note
 * above, since the schema has no `sending`, and the attempt is counted), so a run after a crash mid-send finds no
 * pending mail and sends nothing: a lost e-mail needs a manual resend, a duplicate cannot happen. Refusals
 * (4xx/5xx, connection refused) provably delivered nothing: `retry` puts the mail back to `pending` with its next
 * time and the lane's mail job in one transaction; after MAIL_ATTEMPTS it stays `failed`. An outcome SMTP left
 * open (connection lost after DATA) is `failed` with the note.
 */
export async function sendDocumentEmail(db: Db, documentId: string): Promise<MailOutcome> {
  const doc = await loadDocument(db, documentId);
  if (!doc || doc.mailStatus !== 'pending') return 'not_pending';
  const { SMTP_URL: smtpUrl, MAIL_FROM: from } = config();
  // an offline document is mailed before KSeF numbers it (issue 17): its PDF carries KOD I OFFLINE and KOD II
  if (!doc.buyerEmail || !doc.pdfFileId || !doc.pdfToken || !doc.fa3Xml || !doc.number || (!doc.ksefNumber && !doc.offlineMode)) {
    return finish(db, documentId, { mailStatus: 'failed', mailError: 'The document has no buyer e-mail, PDF or KSeF number to send.' }, 'failed');
  }
  if (!smtpUrl || !/^smtps?:\/\//.test(smtpUrl)) {
    return finish(db, documentId, { mailStatus: 'failed', mailError: 'SMTP_URL is not set to an smtp:// or smtps:// URL.' }, 'failed');
  }
  const [file] = await db.select({ content: files.content, filename: files.filename }).from(files).where(eq(files.id, doc.pdfFileId));
  if (!file) throw new Error(`document ${doc.id}: PDF file ${doc.pdfFileId} is missing`);
  const message = buildInvoiceEmail({
    sellerName: readSellerName(doc.fa3Xml),
    documentKind: doc.kind,
    number: doc.number,
    ksefNumber: doc.ksefNumber,
    pdfUrl: pdfUrl(doc.pdfToken),
    pdf: file.content,
    filename: file.filename,
    to: doc.buyerEmail,
    from,
  });

  const attempt = await claim(db, documentId);
  if (attempt === undefined) return 'not_pending';
  try {
    await sendMail(smtpUrl, message);
  } catch (err) {
    metrics().externalErrors.inc({ service: 'smtp' });
    const why = err instanceof Error ? err.message : String(err);
    if (!nothingDelivered(err)) return record(db, documentId, { mailStatus: 'failed', mailError: `${why}. ${inFlight(new Date())}` }, 'failed');
    if (attempt >= MAIL_ATTEMPTS) return record(db, documentId, { mailStatus: 'failed', mailError: why, mailRetryAt: null }, 'failed');
    const retryAt = new Date(Date.now() + mailRetryDelayMs(attempt));
    await record(db, documentId, { mailStatus: 'pending', mailError: why, mailRetryAt: retryAt }, 'retry', (tx) =>
      enqueue(tx, 'mail_send', { accountId: doc.accountId, mode: doc.mode }, { runAt: retryAt }),
    );
    return 'retry';
  }
  return record(db, documentId, { mailStatus: 'sent', mailError: null, mailRetryAt: null }, 'sent');
}

/**
 * Writes what SMTP answered, with the retry's job when there is one (one transaction). Once the claim committed, a
 * later run finds nothing pending and can never learn the outcome again, so a write that fails here (the database
 * connection was cut just after the send) is retried in place with back-off (about a minute in all) rather than
 * left to the job: without this, a message the server took stayed recorded `failed` with the in-flight note.
 */
async function record(db: Db, documentId: string, fields: DocumentPatch, outcome: MailOutcome, andThen?: (tx: Tx) => Promise<void>): Promise<MailOutcome> {
  for (let attempt = 0; ; attempt++) {
    try {
      if (!andThen) return await finish(db, documentId, fields, outcome);
      return await db.transaction(async (tx) => {
        await andThen(tx);
        return finish(tx, documentId, fields, outcome);
      });
    } catch (err) {
      if (attempt >= 9) throw err;
      await new Promise((r) => setTimeout(r, Math.min(10_000, 100 * 2 ** attempt)));
    }
  }
}

/**
 * Moves `pending` to the in-flight state and counts the attempt, committed on its own; the attempt's number, or
 * undefined when another run got there first. One conditional UPDATE: it takes the row lock and re-checks the
 * condition under it, so two runs cannot both claim.
 */
/**
 * A document whose e-mail may go (columns of documents, unqualified): accepted, or an offline one while it is still
 * on its way to KSeF (issue 17). The claim and the sweep (restore-lane-jobs.ts) both ask this.
 */
export const MAILABLE = sql.raw(`(status = 'accepted' or (offline_mode and status in ('queued', 'sending', 'rejected')))`);

async function claim(db: Db, documentId: string): Promise<number | undefined> {
  const claimed = await db
    .update(documents)
    .set({
      mailStatus: 'failed',
      mailError: inFlight(new Date()),
      mailAt: new Date(),
      mailAttempts: sql`${documents.mailAttempts} + 1`,
      updatedAt: nextUpdatedAt(),
    })
    .where(and(eq(documents.id, documentId), eq(documents.mailStatus, 'pending'), MAILABLE))
    .returning({ attempts: documents.mailAttempts });
  return claimed[0]?.attempts;
}

/** `mailAt` dates the outcome for the document's timeline. */
async function finish(db: DbOrTx, documentId: string, fields: DocumentPatch, outcome: MailOutcome): Promise<MailOutcome> {
  await patchDocument(db, documentId, { ...fields, mailAt: new Date() });
  return outcome;
}

/**
 * True only when nodemailer's error proves the message was not accepted: an SMTP reply of 4xx/5xx, or a failure
 * to connect, resolve, secure or log in. A time-out or a dropped connection may come after the server took the
 * message, so it is not a refusal.
 */
function nothingDelivered(err: unknown): boolean {
  const e = err as { code?: unknown; responseCode?: unknown; syscall?: unknown; message?: unknown };
  if (typeof e.responseCode === 'number' && e.responseCode >= 400) return true;
  if (typeof e.code === 'string' && ['EDNS', 'ETLS', 'EAUTH', 'EENVELOPE', 'EREQUIRETLS'].includes(e.code)) return true;
  if (e.syscall === 'connect' || e.syscall === 'getaddrinfo') return true;
  return e.code === 'ETIMEDOUT' && typeof e.message === 'string' && /^(Connection timeout|Greeting never received)/.test(e.message);
}
