import { and, asc, eq, gt, isNull, lte, min, or, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { documents } from '@/server/db/schema';
import { inScope, type Scope } from '@/server/db/scope';
import { enqueue } from '@/server/jobs/enqueue';
import { reportFailure } from '@/server/observability/failures';
import { sendDocumentEmail, type MailOutcome } from './send-document-email';

/** How many due e-mails one mail step sends; more are left to the lane's next step (sending one takes milliseconds). */
export const MAIL_LANE_BOUND = 100;

/**
 * Sends a lane's e-mails one after another. After a refusal the run sends no more: SMTP is likely down for all of
 * them, and each try could wait for its connection time-out. The others stay due, for the mail step the refusal
 * scheduled (sendDocumentEmail), and are not counted as attempts.
 */
export function laneMailer(db: Db) {
  let refused = false;
  return {
    get refused() {
      return refused;
    },
    async send(documentId: string): Promise<MailOutcome | 'deferred'> {
      if (refused) return 'deferred';
      const outcome = await sendDocumentEmail(db, documentId);
      if (outcome === 'failed') reportFailure('mail_failed', { documentId }); // the document's mailError says why
      if (outcome === 'retry') refused = true;
      return outcome;
    },
  };
}

const pendingMail = (scope: Scope) => and(inScope(documents, scope), eq(documents.mailStatus, 'pending'));

/**
 * mail_send for a seller lane: every due e-mail of the lane (pending, its retry time reached), oldest first, up to
 * MAIL_LANE_BOUND. Then the lane's next mail step: now when more are due, else at the earliest retry time still
 * ahead (enqueue keeps a waiting step that runs no later).
 */
export async function mailLane(db: Db, scope: Scope): Promise<void> {
  const due = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(pendingMail(scope), or(isNull(documents.mailRetryAt), lte(documents.mailRetryAt, sql`now()`))))
    .orderBy(asc(documents.seq))
    .limit(MAIL_LANE_BOUND + 1);
  const mailer = laneMailer(db);
  for (const d of due.slice(0, MAIL_LANE_BOUND)) await mailer.send(d.id);
  if (due.length > MAIL_LANE_BOUND && !mailer.refused) return enqueue(db, 'mail_send', scope);
  const [next] = await db
    .select({ at: min(documents.mailRetryAt) })
    .from(documents)
    .where(and(pendingMail(scope), gt(documents.mailRetryAt, sql`now()`)));
  if (next?.at) await enqueue(db, 'mail_send', scope, { runAt: next.at });
}
